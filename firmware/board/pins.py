"""Every pin, bus, clock and active level of every board profile, in one table.

GPIO numbers, not header positions.  hardware/README.md section 2 is the
ESP32-S3-DevKitC-1 plan (s3, the recommended build), 2.1 the DevKitC plan
(devkit, oled and sh1106); the ESP32-2432S028R ("CYD", and the CYD2USB
revision with an ST7789) has its own board wiring, listed under CYD.  A board module reads only this file for
numbers: porting to another pin plan is an edit here.

Each profile is one table: a role, its number (a GPIO, -1 for none; or a
bus id, a clock in Hz, an I2C address) and a note, one role a line.  A
board module reads it with get(DEVKIT, "THROW") while it builds the Board.
The tables are strings, read in place from the flash: the bowl keeps no
module constant per pin (docs/memory.md).

Switch inputs are active low: external 10 kOhm pull-up, internal pull-up
on as well, RC to ground (hardware/README.md 4.2).
"""

from micropython import const

# s3: ESP32-S3-DevKitC-1 N8R8 (8 MB flash, 8 MB octal PSRAM) + 2.0" ST7789 on SPI2 (FSPI).
# The same parts as devkit, every pin re-planned for the S3.  Kept clear:
# GPIO26-32 (the module's SPI flash and PSRAM), 33-37 (the octal PSRAM's
# extra data lines on N8R8), 19/20 (native USB), 43/44 (UART0: the REPL on
# the board's UART port), 0/3/45/46 (strapping), 38 and 48 (the board's RGB
# LED, on 38 or 48 by revision), 39-42 (JTAG).  MicroPython's esp32 port:
# SPI(1) is SPI2 (FSPI), whose IO_MUX pins are SCK 12, MOSI 11, MISO 13,
# CS 10 (the direct path, no GPIO-matrix limit on the clock); SPI(2) is
# SPI3, matrix only.  UART(2) exists on the S3 (three UARTs), Timer(0) is
# hardware timer group 0 timer 0, and LEDC PWM reaches any output GPIO.
# Every pin but MOTOR is on the board's header J1 (GPIO4-18 down one side).
S3 = """
SPI_ID 1 SPI2 (FSPI) on its IO_MUX pins
SPI_HZ 40000000 as devkit; IO_MUX allows up to 80 MHz, the wires decide
SCK 12 SPI2 IO_MUX clock
MOSI 11 SPI2 IO_MUX data out
MISO 13 reserved, not connected: SPI(1) claims its IO_MUX MISO when none is given
CS 10 SPI2's IO_MUX CS0, driven as a plain output by the driver
DC 9 next to the bus on the header; no boot function
RST 8 no boot function: the panel resets once, when the driver starts
BL 7 LEDC PWM, only if the module switches BL itself
THROW 4 big button and 3.5 mm jack in parallel; RTC GPIO (wake), no boot function
REFEREE 5 RTC GPIO, no boot function: a held key never changes the boot
BUZZER 6 passive piezo through 100 Ohm, LEDC PWM; no boot function
LAMP 15 button lamp MOSFET gate: lit = ready to throw; no boot function (XTAL_32K pin, unused)
DF_TX 17 UART2 to the DFPlayer (speech, optional); no boot function
DF_RX 18 beside DF_TX on J1; UART2 takes any pin through the GPIO matrix
DF_BUSY 16 low = playing; external pull-up, as on devkit; no boot function
MOTOR 21 vibration motor MOSFET gate (optional), header J3; 100 kOhm pull-down holds it off at reset
"""

# devkit: ESP32-DevKitC (WROOM-32E) + 2.0" ST7789 240x320 on SPI2 (VSPI)
DEVKIT = """
SPI_ID 2
SPI_HZ 40000000 safe for 10-15 cm of wire; drop to 26 MHz on speckles
SCK 18
MOSI 23
MISO 19 reserved, not connected: the panel is write-only
CS 22
DC 21
RST 4
BL 32 LEDC PWM, only if the module switches BL itself
THROW 33 big button and 3.5 mm jack in parallel; RTC GPIO (wake)
REFEREE 27
BUZZER 25 passive piezo through 100 Ohm, LEDC PWM
LAMP 26 button lamp MOSFET gate: lit = ready to throw
DF_TX 17 UART2 to the DFPlayer (speech, optional)
DF_RX 16
DF_BUSY 35 low = playing; external pull-up
MOTOR 13 vibration motor MOSFET gate (optional); not 14: it toggles at boot
"""

# oled: the same DevKitC plan, SSD1306 128x64 on I2C instead of the TFT;
# sh1106 (the 1.3" SH1106 modules) is the same wiring and this table
OLED = """
I2C_ID 0
I2C_HZ 400000 a full 1,024-byte frame is >= 23 ms on the wire
SDA 21 the DevKitC's usual I2C pins (the TFT's DC/CS are not fitted)
SCL 22
ADDR 0x3C 0x3D on modules with the address jumper moved
THROW 33
REFEREE 27
BUZZER 25
LAMP 26
DF_TX 17 the DevKitC plan's DFPlayer wiring, unchanged
DF_RX 16
DF_BUSY 35
MOTOR 13 the DevKitC plan's vibration motor, unchanged
"""

# cyd: ESP32-2432S028R, 2.8" ILI9341 240x320 on HSPI, fixed board wiring;
# cyd2usb (the revision with micro-USB and USB-C, an ST7789 panel) is the
# same wiring and this table (witnessmenow's CYD2USB TFT_eSPI setup).
# Not used by the bowl, listed so nothing claims them: touch (XPT2046 on its own
# bus: CLK 25, MOSI 32, MISO 39, CS 33, IRQ 36), micro SD (VSPI 18/19/23, CS 5),
# light sensor 34, BOOT button 0 (strapping: never a player's switch).
# No speech module and no vibration motor: the board's connectors bring out
# no free output pin (P3's 35 is input only, 21 the backlight, 22 and 27 the
# switches; UART0 on P1 is the USB serial).  board.cyd builds no speaker.
CYD = """
SPI_ID 1 HSPI
SPI_HZ 40000000
SCK 14
MOSI 13
MISO 12
CS 15
DC 2 a strapping pin the board itself uses as DC: output only
RST -1 the panel's reset is tied to EN
BL 21 backlight, active high; low at reset: light it before drawing
THROW 27 CN1 connector; add the 10 kOhm pull-up and RC of section 4.2
REFEREE 22 CN1 / P3 connector; same pull-up and RC
BUZZER 26 the SC8002B amplifier's input (speaker connector)
LED_RED 4 on-board RGB LED, active low: the ready lamp (green)
LED_GREEN 16
LED_BLUE 17
"""


def get(table, role):
    """The number of `role` (e.g. "THROW") in a profile's table; ValueError if it has none."""
    at = table.index("\n" + role + " ") + len(role) + 2
    line_end = table.index("\n", at)
    note = table.find(" ", at, line_end)
    return int(table[at : line_end if note < 0 else note], 0)


# every profile
PRESSED = const(0)  # active low switches
WDT_MS = const(8000)  # hardware watchdog timeout; the feeder runs every second
TONE_DUTY = const(32768)  # duty_u16 at full volume: a 50 % square wave, the loudest
DF_UART_ID = const(2)  # the DFPlayer's UART (hardware/README.md 4.5)
DF_BAUD = const(9600)  # 8N1, the module's fixed rate
WDT_TIMER_ID = const(0)  # hardware timer that feeds the started WDT while the host syncs
