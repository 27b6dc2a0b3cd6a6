"""The hardware page and its diagrams say the same pins as the firmware (firmware/board/pins.py).

A builder wires from hardware/README.md and the SVGs beside it; the board
drives what pins.py says.  If they disagree, a switch sits on a pin the
firmware never reads.
"""

import importlib.util
import os
import re

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
README = os.path.join(ROOT, "hardware", "README.md")

_spec = importlib.util.spec_from_file_location("wiring", os.path.join(ROOT, "tools", "wiring.py"))
wiring = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(wiring)

# The README's table section of each profile.
SECTIONS = {"s3": "## 2. ESP32 pinout", "devkit": "### 2.1 ", "oled": "### 2.2 ", "cyd": "### 2.3 "}
# How a README row's function names a pins.py role; rows naming several GPIOs
# name their roles in the same order ("33, 27 | THROW, REFEREE").
ROLE_WORDS = {
    "SCK": r"\bSCK\b",
    "MOSI": r"\bMOSI\b",
    "MISO": r"\bMISO\b",
    "CS": r"\bCS\b",
    "DC": r"\bDC\b",
    "RST": r"\bRST\b",
    "BL": r"\bbacklight\b",
    "SDA": r"\bI2C SDA\b",
    "SCL": r"\bI2C SCL\b",
    "THROW": r"\bTHROW\b",
    "REFEREE": r"\bREFEREE\b",
    "BUZZER": r"\bpiezo(?: buzzer)?\b|\bbuzzer\b|\bspeaker amplifier\b",
    "LAMP": r"\blamp\b",
    "MOTOR": r"\bvibration motor\b",
    "DF_TX": r"\bUART2 TX\b",
    "DF_RX": r"\bUART2 RX\b",
    "DF_BUSY": r"\bBUSY\b",
    "LED_RED": r"\bred\b",
    "LED_GREEN": r"\bgreen\b",
    "LED_BLUE": r"\bblue\b",
}
# Rows the bowl leaves alone (spare pins, the CYD's touch, SD, light sensor, BOOT).
UNUSED = re.compile(r"\bnot used\b|^spare$|never a player's switch", re.I)


def table_rows(text, heading):
    """The first markdown table after `heading`: a list of cell lists, header and rule dropped."""
    start = text.index(heading)
    rows = []
    for line in text[start:].splitlines()[1:]:
        if line.startswith("|"):
            rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
        elif rows:
            break
    return rows[2:]


def readme_pins(text, profile):
    """{role: gpio} that the README's table for `profile` states (-1 for "–": no GPIO)."""
    found = {}
    for cells in table_rows(text, SECTIONS[profile]):
        gpio_cell, function = cells[0], cells[1]
        if any(UNUSED.search(cell) for cell in cells[1:]):
            continue
        gpios = [-1 if g in ("–", "-") else int(g) for g in gpio_cell.split(", ")]
        hits = sorted(
            (m.start(), role) for role, word in ROLE_WORDS.items() for m in re.finditer(word, function, re.I)
        )
        roles = [role for _, role in hits]
        assert len(roles) == len(gpios), "%s table row %r: %d GPIOs but functions %s" % (
            profile,
            "|".join(cells),
            len(gpios),
            roles,
        )
        for role, gpio in zip(roles, gpios, strict=True):
            assert role not in found, "%s table: %s listed twice" % (profile, role)
            found[role] = gpio
    return found


def pin_diff(profile, firmware, readme):
    """One line per disagreement, readable in a test failure."""
    lines = []
    name = profile.upper() + "_"
    for role in sorted(set(firmware) | set(readme)):
        if role not in readme:
            lines.append("%s%s: pins.py GPIO%d, missing from the README table" % (name, role, firmware[role]))
        elif role not in firmware:
            lines.append("%s%s: README says GPIO%d, pins.py has no such pin" % (name, role, readme[role]))
        elif firmware[role] != readme[role]:
            lines.append("%s%s: pins.py GPIO%d, README GPIO%d" % (name, role, firmware[role], readme[role]))
    return lines


@pytest.mark.parametrize("profile", wiring.PROFILES)
def test_readme_pin_tables_agree_with_the_firmware(profile):
    with open(README, encoding="utf-8") as f:
        text = f.read()
    firmware = wiring.profile_pins(wiring.load_pins(), profile)
    diff = pin_diff(profile, firmware, readme_pins(text, profile))
    assert not diff, "hardware/README.md §2 and firmware/board/pins.py disagree:\n" + "\n".join(diff)


def test_the_diff_names_a_moved_pin():
    assert pin_diff("devkit", {"THROW": 33, "LAMP": 26}, {"THROW": 34, "BL": 32}) == [
        "DEVKIT_BL: README says GPIO32, pins.py has no such pin",
        "DEVKIT_LAMP: pins.py GPIO26, missing from the README table",
        "DEVKIT_THROW: pins.py GPIO33, README GPIO34",
    ]


def test_a_readme_row_is_read_as_its_roles_in_order():
    text = "### 2.3 x\n\n| GPIO | function | notes |\n|---|---|---|\n| 4, 16, 17 | RGB LED red, green, blue | |\n"
    assert readme_pins(text, "cyd") == {"LED_RED": 4, "LED_GREEN": 16, "LED_BLUE": 17}


def test_committed_diagrams_are_what_the_generator_draws_now():
    stale = []
    for name, svg in wiring.diagrams().items():
        path = os.path.join(ROOT, "hardware", name)
        committed = open(path, encoding="utf-8").read() if os.path.exists(path) else None
        if committed != svg:
            stale.append(name)
    assert not stale, "hardware/%s out of date with pins.py: run `make hardware`" % ", hardware/".join(stale)


def _svg_text_heights(svg):
    """{text: [y, ...]} of every text of an SVG (pt)."""
    heights = {}
    for y, text in re.findall(r'<text [^>]*y="([-0-9.]+)"[^>]*><tspan[^>]*>([^<]*)</tspan>', svg):
        heights.setdefault(text, []).append(float(y))
    return heights


@pytest.mark.parametrize("profile", wiring.PROFILES)
def test_every_pin_of_a_profile_is_on_its_own_wire_in_its_diagram(profile):
    heights = _svg_text_heights(wiring.diagrams()["wiring-%s.svg" % profile])
    missing = []
    for role, gpio in wiring.profile_pins(wiring.load_pins(), profile).items():
        pin = wiring.esp32_pin(gpio)
        # the ESP32's pin name and the wire's role label sit on one wire (pins are 58 pt apart)
        if not any(abs(a - b) < 10 for a in heights.get(role, ()) for b in heights.get(pin, ())):
            missing.append("%s on %s" % (role, pin))
    assert not missing, "wiring-%s.svg lacks %s" % (profile, ", ".join(missing))


@pytest.mark.parametrize(
    "name, roles",
    [
        ("wiring-switch-jack.svg", ("THROW",)),
        ("wiring-dfplayer.svg", ("DF_TX", "DF_RX", "DF_BUSY")),
        ("wiring-motor.svg", ("MOTOR",)),
    ],
)
def test_the_circuit_diagrams_name_each_profiles_pin(name, roles):
    svg = wiring.diagrams()[name]
    pins = wiring.load_pins()
    missing = [
        "%s %s GPIO%d" % (profile, role, gpio)
        for profile in wiring.PROFILES
        for role, gpio in wiring.profile_pins(pins, profile).items()
        if role in roles and not re.search(r"GPIO%d \([^)]*\b%s\b" % (gpio, profile), svg)
    ]
    assert not missing, "%s lacks %s" % (name, ", ".join(missing))


def test_a_missing_output_folder_is_one_line_on_stderr(tmp_path, capsys):
    assert wiring.main(["wiring.py", str(tmp_path / "nowhere")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "OUT_DIR" in err
    assert not list(tmp_path.iterdir())


def test_an_unknown_pin_stops_the_generator():
    class Pins:
        DEVKIT = "\nSPI_ID 2\nSPI_HZ 40000000\nTHROW 33\nHORN 5 a pin nobody drew\n"
        get = staticmethod(wiring.load_pins().get)

    with pytest.raises(ValueError, match="DEVKIT_HORN has no wire"):
        wiring.describe(Pins, "devkit")
