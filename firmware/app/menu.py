"""The operator menu (referee long press) and PIN entry, with the two buttons only.

In the menu: REFEREE (short) moves to the next item; THROW or a REFEREE
long press takes the item (a setting steps to its next value, wrapping).
PIN entry: THROW steps the digit 0-9, REFEREE takes it; four digits.  In
kiosk mode the menu opens only after the right PIN, and Ctrl-C stays off
in it as in play (only the host's sync turns it on).  Nothing here throws
or voids: the throw input is disabled while the menu is open.  Each item
and its value are spoken as they are reached (say_item), for a blind
operator; the PIN's digits are not.
"""

from display import texts as T
from micropython import const

from app import settings as S
from app import sounds
from app import speech as sp
from bobing.rules import PRESETS
from bobing.store.log import StoreFull

MENU_TIMEOUT_MS = const(60000)  # no press for a minute: back to play
PIN_DIGITS = const(4)
SHOW_MS = const(1500)  # a refusal stays up this long
# speech languages by card folder (app/speech.py); folders 4..9 hold recordings
VOICES = ("", "mandarin", "cantonese", "english")

ITEMS = (
    T.T_NEW_GAME,
    T.T_PLAYERS,
    T.T_RULES,
    T.T_PRIZE_SETS,
    T.T_WHO_STARTS,
    T.T_VOLUME,
    T.T_MUTE,
    T.T_LANGUAGE,
    T.T_ACCEPT_TIME,
    T.T_REARM_TIME,
    T.T_LONG_PRESS,
    T.T_KIOSK,
    T.T_PIN,
    T.T_LIFETIME,
    T.T_ABOUT,
    T.T_SPEECH,  # on / off
    T.T_SPEECH,  # the language (card folder)
    T.T_SPEECH,  # the volume
    T.T_IDLE_TIMEOUT,
    T.T_HIGH_CONTRAST,
    T.T_VIBRATION,
    T.T_ONE_SWITCH,
    T.T_BACK,
)
# the setting each item steps, 255: an action
_SETTING = bytes(
    (
        255,
        S.PLAYERS,
        S.PRESET,
        S.SETS,
        S.STARTER,
        S.VOLUME,
        S.MUTE,
        S.LANGUAGE,
        S.ACCEPT_MS,
        S.REARM_MS,
        S.LONG_MS,
        S.KIOSK,
        255,
        255,
        255,
        S.SPEECH,
        S.SPEECH_LANGUAGE,
        S.SPEECH_VOLUME,
        S.IDLE_MIN,
        S.CONTRAST,
        S.VIBRATION,
        S.SCAN,
        255,
    )
)


def values(settings):
    """The short ASCII value shown beside each item."""
    out = []
    for i in range(len(ITEMS)):
        k = _SETTING[i]
        v = settings[k] if k != 255 else 0
        if k == S.PRESET:
            out.append(PRESETS[v])
        elif k == S.STARTER:
            out.append("seat 1" if v else "draw")
        elif k == S.MUTE or k == S.KIOSK or k == S.SPEECH or k == S.CONTRAST or k == S.VIBRATION:
            out.append("on" if v else "off")
        elif k == S.SPEECH_LANGUAGE:
            out.append(VOICES[v] if v < len(VOICES) else "folder %d" % v)
        elif k == S.IDLE_MIN:
            out.append("%d min" % v if v else "off")
        elif k == S.SCAN:
            out.append("%d s" % v if v else "off")
        elif k == S.SPEECH_VOLUME:
            out.append("vol %d" % v)
        elif k == S.LANGUAGE:
            out.append("english" if v else "pinyin")
        elif k == S.ACCEPT_MS or k == S.REARM_MS or k == S.LONG_MS:
            out.append("%d ms" % v)
        elif k != 255:
            out.append("%d" % v)
        elif ITEMS[i] == T.T_PIN:
            out.append("****")
        else:
            out.append("")
    return out


def say_item(app, i, lead=-1):
    """Say item i and its value, after the text `lead` (-1: none), as the item
    is reached and after each step: a blind operator hears where the menu is."""
    said = app.aside
    if said is None:
        return
    said.clear()
    if lead >= 0:
        said.text(lead)
    said.text(ITEMS[i])
    k = _SETTING[i]
    if k != 255:
        _say_value(said, k, app.settings[k])
    app.speak(said)


def _say_value(said, k, v):
    # the spoken form of values(): the same words, with their units
    if k == S.PRESET:
        said.add(sp.CLIP_PRESET + v)
    elif k == S.STARTER:
        said.text(T.T_SEAT_ONE if v else T.T_DRAW)
    elif k == S.MUTE or k == S.KIOSK or k == S.SPEECH or k == S.CONTRAST or k == S.VIBRATION:
        said.text(T.T_ON if v else T.T_OFF)
    elif k == S.LANGUAGE:
        said.text(T.T_ENGLISH if v else T.T_PINYIN)
    elif k == S.SPEECH_LANGUAGE and v < len(VOICES):
        said.add(sp.CLIP_VOICE + v)
    elif k == S.SPEECH_LANGUAGE:
        said.add(sp.CLIP_FOLDER)
        said.number(v)
    elif (k == S.IDLE_MIN or k == S.SCAN) and not v:
        said.text(T.T_OFF)
    else:
        said.number(v)
        if k == S.IDLE_MIN:
            said.add(sp.CLIP_MINUTES)
        elif k == S.SCAN:
            said.add(sp.CLIP_SECONDS)
        elif k == S.ACCEPT_MS or k == S.REARM_MS or k == S.LONG_MS:
            said.add(sp.CLIP_MS)


def _say(app, text):
    said = app.aside
    if said is not None:
        said.clear()
        said.text(text)
        app.speak(said)


def _say_lifetime(app, life):
    said = app.aside
    if said is None:
        return
    said.clear()
    said.text(T.T_LIFETIME)
    for text, count in (
        (T.T_GAMES, life["games"]),
        (T.T_THROWS, life["throws"]),
        (T.T_RECOVERIES, life["recoveries"]),
        (T.T_BOOTS, app.boots),
    ):
        said.text(text)
        said.number(count)
    app.speak(said)


async def pin_entry(app):
    """Four digits from the two buttons: the number, or -1 (given up).
    Only 输入密码 is said: digits said aloud would tell the PIN to the room."""
    ins = app.inputs
    _say(app, T.T_ENTER_PIN)
    value = 0
    digit = 0
    entered = 0
    while entered < PIN_DIGITS:
        app.screen.pin(entered, digit)
        event = await app.wait(MENU_TIMEOUT_MS)
        if event == ins.THROW:
            digit = (digit + 1) % 10
        elif event == ins.REFEREE:
            value = value * 10 + digit
            entered += 1
            digit = 0
        else:
            return -1
    return value


async def operator_menu(app):
    """Run the menu until Back or a timeout; True if New game was taken."""
    ins = app.inputs
    settings = app.settings
    ins.lock()  # forget any press that was on its way
    ins.unlock()
    if settings[S.KIOSK]:
        if await pin_entry(app) != settings[S.PIN]:
            app.screen.message(T.T_WRONG_PIN, -1)
            _say(app, T.T_WRONG_PIN)
            app.live.status("pin", "wrong PIN")
            await app.clock.sleep_ms(SHOW_MS)
            return False
    saved = list(settings.values)
    try:
        return await _items(app, settings)
    finally:  # also when the host's sync line ends the menu
        if settings.values != saved:
            try:
                settings.save()
            except StoreFull:
                app.live.status("settings", "flash full: settings not saved")
        app.apply_settings()


async def _items(app, settings):
    """The menu's items until Back, New game or a timeout; True for New game."""
    ins = app.inputs
    selected = 0
    lead = T.T_MENU
    while True:
        app.screen.menu(T.T_MENU, ITEMS, values(settings), selected)
        say_item(app, selected, lead)
        lead = -1
        event = await app.wait(MENU_TIMEOUT_MS)
        if event == ins.REFEREE:
            selected = (selected + 1) % len(ITEMS)
            continue
        if event != ins.THROW and event != ins.REFEREE_LONG:
            break  # timeout
        app.board.sound.play(sounds.CLICK)
        item = ITEMS[selected]
        k = _SETTING[selected]
        if k != 255:
            settings.step(k)
            app.apply_settings()  # Ctrl-C as the kiosk setting now says, never on in kiosk mode
        elif item == T.T_NEW_GAME:
            return True
        elif item == T.T_PIN:
            pin = await pin_entry(app)
            if pin >= 0:
                settings[S.PIN] = pin
        elif item == T.T_LIFETIME:
            life = app.session.store.lifetime()
            app.screen.lifetime(life["games"], life["throws"], life["recoveries"], app.boots)
            _say_lifetime(app, life)
            await app.wait(MENU_TIMEOUT_MS)
        elif item == T.T_ABOUT:
            app.screen.about(app.board.entropy, app.VERSION, app.board.name)
            await app.wait(MENU_TIMEOUT_MS)
        else:
            break  # Back
    return False
