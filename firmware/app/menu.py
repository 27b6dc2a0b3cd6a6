"""The operator menu (referee long press) and PIN entry, with the two buttons only.

In the menu: REFEREE (short) moves to the next item; THROW or a REFEREE
long press takes the item (a setting steps to its next value, wrapping).
PIN entry: THROW steps the digit 0-9, REFEREE takes it; four digits.  In
kiosk mode the menu opens only after the right PIN.  Nothing here throws
or voids: the throw input is disabled while the menu is open.
"""

from display import texts as T
from micropython import const

from app import settings as S
from app import sounds
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


async def pin_entry(app):
    """Four digits from the two buttons: the number, or -1 (given up)."""
    ins = app.inputs
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
            app.live.status("pin", "wrong PIN")
            await app.clock.sleep_ms(SHOW_MS)
            return False
    app.board.kbd_intr(True)
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
    while True:
        app.screen.menu(T.T_MENU, ITEMS, values(settings), selected)
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
            app.apply_settings()
            app.board.kbd_intr(True)
        elif item == T.T_NEW_GAME:
            return True
        elif item == T.T_PIN:
            pin = await pin_entry(app)
            if pin >= 0:
                settings[S.PIN] = pin
        elif item == T.T_LIFETIME:
            life = app.session.store.lifetime()
            app.screen.lifetime(life["games"], life["throws"], life["recoveries"], app.boots)
            await app.wait(MENU_TIMEOUT_MS)
        elif item == T.T_ABOUT:
            app.screen.about(app.board.entropy, app.VERSION, app.board.name)
            await app.wait(MENU_TIMEOUT_MS)
        else:
            break  # Back
    return False
