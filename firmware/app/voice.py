"""The bowl's voice: app/speech.py's announcements on the board's speaker.

Imported only when the board has a speaker (board.speaker, a
board.dfplayer.DFPlayer), so a bowl without one pays nothing for speech.

One Announcement is built and kept: the app fills it (throw, start, end,
resumed, message), may append to it (add: a stop or a notice that came
with the same press), then speak() hands it to the module's queue, which
plays it from its own asyncio task: nothing here waits.  It stays there
for the referee's repeat.  With speech off, announcements are still built
(cheap, no allocation) but never sent, so switching speech on in the menu
makes the next repeat say what is on the screen.
"""

from display import texts as tx

from app import speech


class Voice:
    def __init__(self, speaker):
        self.speaker = speaker
        self.said = speech.Announcement()
        self.on = True

    def apply(self, on, language, volume):
        """The settings: speech on/off, card folder 1..99, volume 0..30."""
        self.on = bool(on)
        self.said.language = language
        self.speaker.volume(volume)
        if not on:
            self.speaker.stop()

    @property
    def speaking(self):
        """True while an announcement plays: the lock-out of hardware/README.md 9."""
        return self.on and self.speaker.speaking

    def speak(self):
        said = self.said
        if self.on and said.count:
            self.speaker.say(said.clips, said.count, said.language)

    def repeat(self, ask_void):
        """Say the last announcement again; with ask_void, then the void question
        (跳猴? press again), which is not kept for the next repeat."""
        said = self.said
        count = said.count
        truncated = said.truncated
        if ask_void:
            said.text(tx.T_VOID_ASK)
            said.text(tx.T_PRESS_AGAIN)
        self.speak()
        said.count = count
        said.truncated = truncated

    def clear(self):
        self.said.clear()

    def add(self, text, detail=-1):
        """Append a display.texts sentence (and a second one) to the announcement."""
        self.said.text(text)
        if detail >= 0:
            self.said.text(detail)

    def throw(self, events, game):
        speech.throw(self.said, events, game)

    def start(self, game):
        speech.game_start(self.said, game)

    def end(self, game):
        speech.game_end(self.said, game)

    def resumed(self, game, shown):
        speech.resumed(self.said, game, shown)
