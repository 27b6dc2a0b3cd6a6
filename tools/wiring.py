"""`make hardware`: the wiring diagrams of hardware/README.md, drawn from the firmware's pin table.

Usage: python tools/wiring.py [OUT]   (default hardware/)

Writes, with schemdraw's pure-Python SVG backend (no timestamps, no random
ids: the same pins.py always gives the same bytes):
  wiring-s3.svg, wiring-devkit.svg, wiring-oled.svg, wiring-cyd.svg  every
      pin of a board profile, from the ESP32 to what it drives
      (hardware/README.md §2; sh1106 is wired as oled, cyd2usb as cyd);
  wiring-switch-jack.svg  the THROW input: big button and 3.5 mm jack in
      parallel, 10 kOhm pull-up, 1 kOhm series, 100 nF, TVS (§4.2);
  wiring-dfplayer.svg  the speech module on UART2 with BUSY (§4.5);
  wiring-motor.svg  the optional vibration motor: N-MOSFET low side,
      gate resistor and pull-down, flyback diode (§4.7).
Every number comes from firmware/board/pins.py, read as a module on CPython
(its `from micropython import const` is answered by host_tools/shim).  A pin
name this file does not know stops the run: a new pin needs its wire drawn.
"""

import importlib.util
import os
import sys

import schemdraw
import schemdraw.elements as elm

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PINS_PY = os.path.join(ROOT, "firmware", "board", "pins.py")
HARDWARE = os.path.join(ROOT, "hardware")
PROFILES = ("s3", "devkit", "oled", "cyd")
# Constants of a profile that are bus settings, not GPIOs (name suffixes).
NOT_PINS = ("_ID", "_HZ", "ADDR")


def load_pins():
    """firmware/board/pins.py as a CPython module."""
    sys.path.insert(0, os.path.join(ROOT, "host_tools", "shim"))
    try:
        spec = importlib.util.spec_from_file_location("board_pins", PINS_PY)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.pop(0)
    return module


def profile_pins(pins, profile):
    """{role: gpio} of one profile, e.g. {"THROW": 33, ...}; gpio -1 = not wired to a GPIO."""
    table = getattr(pins, profile.upper())  # one role a line: ROLE NUMBER [note]
    roles = [line.split()[0] for line in table.strip().split("\n")]
    return {role: pins.get(table, role) for role in roles if not role.endswith(NOT_PINS)}


# role -> (what the wire goes to, part in the wire or ""); "{panel}" is the profile's display.
_ROLES = {
    "SCK": ("{panel} CLK", ""),
    "MOSI": ("{panel} DIN (SDA)", ""),
    "MISO": ("not connected: kept free for the SPI bus", ""),
    "CS": ("{panel} CS", ""),
    "DC": ("{panel} DC", ""),
    "RST": ("{panel} RST", ""),
    "BL": ("{panel} BL (PWM backlight)", ""),
    "SDA": ("{panel} SDA", ""),
    "SCL": ("{panel} SCL", ""),
    "THROW": ("big button + 3.5 mm jack (wiring-switch-jack.svg)", "1 kΩ"),
    "REFEREE": ("referee button / key switch, 10 kΩ pull-up, 100 nF", "1 kΩ"),
    "BUZZER": ("passive piezo to GND", "100 Ω"),
    "LAMP": ("button lamp N-MOSFET gate", "100 Ω"),
    "MOTOR": ("vibration motor N-MOSFET gate (wiring-motor.svg)", "100 Ω"),
    "DF_TX": ("DFPlayer RX (wiring-dfplayer.svg)", "1 kΩ"),
    "DF_RX": ("DFPlayer TX", ""),
    "DF_BUSY": ("DFPlayer BUSY, 10 kΩ pull-up to 3V3", ""),
    "LED_RED": ("on-board RGB LED red (active low, kept off)", ""),
    "LED_GREEN": ("on-board RGB LED green (active low): ready lamp", ""),
    "LED_BLUE": ("on-board RGB LED blue (active low, kept off)", ""),
}
# Where a profile's board wires a pin differently from the DevKitC plan.
_CYD_ROLES = {
    "MOSI": ("{panel} SDI (on the board)", ""),
    "MISO": ("{panel} SDO (on the board)", ""),
    "RST": ("{panel} RST: tied to EN on the board, no GPIO", ""),
    "BL": ("{panel} backlight, active high (on the board)", ""),
    "THROW": ("connector CN1: big button + jack, add the §4.2 pull-up and RC", ""),
    "REFEREE": ("connector CN1 / P3: referee key, same pull-up and RC", ""),
    "BUZZER": ("SC8002B amplifier input: speaker connector", ""),
}


def describe(pins, profile):
    """(title, [(role, gpio, destination, part)]) of a profile, in pins.py's order of roles."""
    if profile == "s3":
        panel = "ST7789 TFT"
        title = 's3: ESP32-S3-DevKitC-1 N8R8 + 2.0" ST7789 on SPI(%d) (SPI2, IO_MUX pins), %d MHz' % (
            pins.get(pins.S3, "SPI_ID"),
            pins.get(pins.S3, "SPI_HZ") // 1_000_000,
        )
    elif profile == "devkit":
        panel = "ST7789 TFT"
        title = 'devkit: ESP32-DevKitC (WROOM-32E) + 2.0" ST7789 on SPI(%d), %d MHz' % (
            pins.get(pins.DEVKIT, "SPI_ID"),
            pins.get(pins.DEVKIT, "SPI_HZ") // 1_000_000,
        )
    elif profile == "oled":
        panel = "SSD1306 OLED"
        title = "oled: ESP32-DevKitC + SSD1306 128x64 on I2C(%d), %d kHz, address 0x%02X" % (
            pins.get(pins.OLED, "I2C_ID"),
            pins.get(pins.OLED, "I2C_HZ") // 1000,
            pins.get(pins.OLED, "ADDR"),
        )
    elif profile == "cyd":
        panel = "ILI9341 TFT"
        title = "cyd: ESP32-2432S028R, ILI9341 on SPI(%d) (HSPI), %d MHz, wired on the board" % (
            pins.get(pins.CYD, "SPI_ID"),
            pins.get(pins.CYD, "SPI_HZ") // 1_000_000,
        )
    else:
        raise ValueError("unknown board profile %r (choose from %s)" % (profile, ", ".join(PROFILES)))
    roles = dict(_ROLES, **_CYD_ROLES) if profile == "cyd" else _ROLES
    rows = []
    for role, gpio in profile_pins(pins, profile).items():
        if role not in roles:
            raise ValueError("pins.py: %s_%s has no wire in tools/wiring.py" % (profile.upper(), role))
        destination, part = roles[role]
        rows.append((role, gpio, destination.format(panel=panel), part))
    rows.sort(key=lambda row: list(roles).index(row[0]))
    return title, rows


def _drawing():
    drawing = schemdraw.Drawing(show=False)
    drawing.config(fontsize=11, unit=2.5)
    return drawing


def gpio_by_profile(pins, role):
    """Where `role` sits in every profile that has it: "GPIO33 (devkit, oled), GPIO27 (cyd)"."""
    profiles = {}
    for profile in PROFILES:
        gpio = profile_pins(pins, profile).get(role)
        if gpio is not None:
            profiles.setdefault(gpio, []).append(profile)
    return ", ".join("%s (%s)" % (esp32_pin(gpio), ", ".join(names)) for gpio, names in profiles.items())


def _text(drawing, text, side="right"):
    """A label beside the current point, with an invisible gap as wide as the text.

    schemdraw sizes the picture from the elements' lines only, so a label
    running past them would be cut off; the gap (≈ 0.18 unit a character at
    11 pt) stretches the picture over it.
    """
    here = drawing.here
    drawing += elm.Label().at(here).theta(0).label(text, loc=side)
    gap = elm.Gap().at(here)
    drawing += (gap.right if side == "right" else gap.left)(0.18 * len(text) + 0.6)
    drawing.here = here


def _svg(drawing):
    return drawing.get_imagedata("svg").decode() + "\n"


def esp32_pin(gpio):
    return "GPIO%d" % gpio if gpio >= 0 else "EN"


def profile_svg(pins, profile):
    """The SVG text of one profile: the ESP32 with every pin, each wire labelled and ended at its part."""
    title, rows = describe(pins, profile)
    drawing = _drawing()
    drawing += elm.Label().label(title, loc="right", fontsize=13).at((0, 1.6 * len(rows) + 1.2))
    drawing += (
        elm.Label()
        .label("generated from firmware/board/pins.py by tools/wiring.py", loc="right")
        .at((0, 1.6 * len(rows) + 0.5))
    )
    esp32 = (
        elm.Ic(
            pins=[
                elm.IcPin(name=esp32_pin(gpio), anchorname=role, side="right")
                for role, gpio, _, _ in reversed(rows)
            ],
            pinspacing=1.6,
            edgepadW=4,
        )
        .label("ESP32-S3" if profile == "s3" else "ESP32", loc="top")
        .at((0, 0))
    )
    drawing += esp32
    for role, _, destination, part in rows:
        drawing += elm.Line().at(getattr(esp32, role)).right(4).label(role)
        if part:
            drawing += elm.Resistor().right(3).label(part)
        else:
            drawing += elm.Line().right(3)
        drawing += elm.Dot()
        _text(drawing, destination)
    return _svg(drawing)


def switch_jack_svg(pins):
    """The THROW input of §4.2: jack and big button in parallel, pull-up, series R, RC, TVS."""
    drawing = _drawing()
    throw = "THROW: " + gpio_by_profile(pins, "THROW")
    drawing += elm.Dot(open=True)
    _text(drawing, "3.5 mm jack TIP", "left")
    tip = drawing.here
    drawing += elm.Resistor().right(4.5).label("R3 1 kΩ")
    drawing += elm.Dot()
    node = drawing.here
    drawing += elm.Resistor().up().label("R1 10 kΩ")
    drawing += elm.Vdd().label("3V3")
    drawing += elm.Resistor().at(node).right(4.5).label("R2 1 kΩ")
    drawing += elm.Dot()
    pin_node = drawing.here
    drawing += elm.Line().right(2)
    drawing += elm.Dot(open=True)
    _text(drawing, throw)
    drawing += (
        elm.Label()
        .label("internal pull-up on too; active low", loc="right")
        .at((pin_node.x + 2.3, pin_node.y - 0.6))
    )
    drawing += elm.Capacitor().at(pin_node).down().label("C1 100 nF", loc="bottom")
    drawing += elm.Ground()
    drawing += elm.Button().at(node).down().label("big button (N.O.)", loc="bottom")
    drawing += elm.Ground()
    drawing += elm.Zener().at(tip).down().reverse().label("TVS SMAJ5.0A", loc="bottom")
    drawing += elm.Ground()
    drawing += elm.Line().left(1.5)
    drawing += elm.Dot(open=True)
    _text(drawing, "jack SLEEVE + RING", "left")
    return _svg(drawing)


def dfplayer_svg(pins):
    """The DFPlayer Mini of §4.5 on UART2: TX through 1 kOhm, RX, BUSY pulled up, bridged speaker."""
    drawing = _drawing()
    drawing += (
        elm.Label()
        .label(
            "DFPlayer Mini on UART(%d), %d baud 8N1: profiles %s"
            % (
                pins.DF_UART_ID,
                pins.DF_BAUD,
                ", ".join(p for p in PROFILES if "DF_TX" in profile_pins(pins, p)),
            ),
            loc="right",
            fontsize=13,
        )
        .at((0, 13.4))
    )
    drawing += (
        elm.Label()
        .label(
            "VCC: 470-1000 µF electrolytic + 100 nF ceramic to GND at the module; volume <= 20 of 30",
            loc="right",
        )
        .at((0, 12.7))
    )
    wires = (
        ("5V", "5V", "VCC", "", "5V"),
        ("DF_TX", gpio_by_profile(pins, "DF_TX"), "RX", "1 kΩ", "DF_TX"),
        ("DF_RX", gpio_by_profile(pins, "DF_RX"), "TX", "", "DF_RX"),
        ("DF_BUSY", gpio_by_profile(pins, "DF_BUSY"), "BUSY", "", "DF_BUSY (low = playing)"),
        ("GND", "GND", "GND", "", ""),
    )
    esp32 = (
        elm.Ic(
            pins=[
                elm.IcPin(name=name, anchorname=key, side="right") for key, name, _, _, _ in reversed(wires)
            ],
            pinspacing=2.4,
            edgepadW=4.5,
        )
        .label("ESP32", loc="top")
        .at((0, 0))
    )
    drawing += esp32
    ends = {}
    for key, _, _, part, label in wires:
        drawing += elm.Line().at(getattr(esp32, key)).right(4.5).label(label)
        if part:
            drawing += elm.Resistor().right(3).label(part)
        else:
            drawing += elm.Line().right(3)
        if key == "DF_BUSY":
            busy = drawing.here
        drawing += elm.Line().right(2)
        ends[key] = drawing.here
    drawing += elm.Dot().at(busy)
    drawing += elm.Resistor().at(busy).up(1.4).label("10 kΩ", loc="bottom")
    drawing += elm.Vdd().label("3V3")
    player = (
        elm.Ic(
            pins=[
                elm.IcPin(name=module_pin, anchorname=key, side="left")
                for key, _, module_pin, _, _ in reversed(wires)
            ]
            + [
                elm.IcPin(name="SPK_1", side="right", slot="2/3"),
                elm.IcPin(name="SPK_2", side="right", slot="1/3"),
            ],
            pinspacing=2.4,
            edgepadW=4.5,
        )
        .label("DFPlayer Mini", loc="top")
        .theta(0)
        .anchor("GND")
        .at(ends["GND"])
    )
    drawing += player
    speaker = elm.Speaker().at(player.SPK_1).theta(0)
    drawing += speaker
    drawing += elm.Wire("-|").at(player.SPK_2).to(speaker.in2)
    drawing.here = (speaker.in1.x + 1.0, speaker.in1.y)
    _text(drawing, "8 Ω speaker: neither wire to GND")
    return _svg(drawing)


def motor_svg(pins):
    """The vibration motor of §4.7: GPIO -> 100 Ohm -> N-MOSFET gate (100 kOhm
    pull-down: off while the pin floats at boot), the motor from 3V3 to the
    drain with a 1N4148 flyback diode across it, source to GND."""
    drawing = _drawing()
    drawing += elm.Dot(open=True)
    _text(drawing, "MOTOR: " + gpio_by_profile(pins, "MOTOR"), "left")
    drawing += elm.Resistor().right(4).label("R 100 Ω")
    drawing += elm.Dot()
    gate_node = drawing.here
    drawing += elm.Line().right(1.5)
    fet = elm.NFet().reverse().anchor("gate")
    drawing += fet
    drawing.here = (fet.drain.x + 0.4, fet.gate.y)
    _text(drawing, "Q AO3400 / 2N7000")
    ground_y = gate_node.y - 2.5
    drawing += elm.Resistor().at(gate_node).down().toy(ground_y).label("100 kΩ", loc="top")
    drawing += elm.Ground()
    drawing += elm.Line().at(fet.source).toy(ground_y)
    drawing += elm.Ground()
    drawing += elm.Line().at(fet.drain).up(1)
    drawing += elm.Dot()
    drain = drawing.here
    drawing += elm.Motor().up()
    drawing += elm.Dot()
    top = drawing.here
    drawing.here = (top.x + 0.9, (top.y + drain.y) / 2)
    _text(drawing, "M coin motor, 3 V, 60-90 mA")
    drawing.here = top
    drawing += elm.Vdd().label("3V3")
    drawing += elm.Line().at(drain).left(3)
    drawing += elm.Diode().up().toy(top).label("D 1N4148 flyback", loc="top")
    drawing += elm.Line().right(3)
    return _svg(drawing)


def diagrams():
    """{file name: SVG text} of every diagram, from pins.py as it is now."""
    schemdraw.use("svg")
    pins = load_pins()
    out = {"wiring-%s.svg" % profile: profile_svg(pins, profile) for profile in PROFILES}
    out["wiring-switch-jack.svg"] = switch_jack_svg(pins)
    out["wiring-dfplayer.svg"] = dfplayer_svg(pins)
    out["wiring-motor.svg"] = motor_svg(pins)
    return out


def main(argv):
    out_dir = argv[1] if len(argv) > 1 else HARDWARE
    if len(argv) > 2 or not os.path.isdir(out_dir):
        sys.stderr.write("usage: python tools/wiring.py [OUT_DIR]  (an existing folder, default hardware/)\n")
        return 2
    for name, svg in diagrams().items():
        with open(os.path.join(out_dir, name), "w", encoding="utf-8") as f:
            f.write(svg)
        print(os.path.join(out_dir, name))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
