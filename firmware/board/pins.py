"""Every pin, bus, clock and active level of every board profile, in one table.

GPIO numbers, not header positions.  hardware/README.md section 2 is the
DevKitC plan (devkit and oled); the ESP32-2432S028R ("CYD") has its own
board wiring, listed under CYD_*.  A board module reads only this file for
numbers: porting to another pin plan is an edit here.

Switch inputs are active low: external 10 kOhm pull-up, internal pull-up
on as well, RC to ground (hardware/README.md 4.2).
"""

from micropython import const

# --- devkit: ESP32-DevKitC (WROOM-32E) + 2.0" ST7789 240x320 on SPI2 (VSPI) ---
DEVKIT_SPI_ID = const(2)
DEVKIT_SPI_HZ = const(40_000_000)  # safe for 10-15 cm of wire; drop to 26 MHz on speckles
DEVKIT_SCK = const(18)
DEVKIT_MOSI = const(23)
DEVKIT_MISO = const(19)  # reserved, not connected: the panel is write-only
DEVKIT_CS = const(22)
DEVKIT_DC = const(21)
DEVKIT_RST = const(4)
DEVKIT_BL = const(32)  # LEDC PWM, only if the module switches BL itself
DEVKIT_THROW = const(33)  # big button and 3.5 mm jack in parallel; RTC GPIO (wake)
DEVKIT_REFEREE = const(27)
DEVKIT_BUZZER = const(25)  # passive piezo through 100 Ohm, LEDC PWM
DEVKIT_LAMP = const(26)  # button lamp MOSFET gate: lit = ready to throw
DEVKIT_DF_TX = const(17)  # UART2 to the DFPlayer (speech, optional)
DEVKIT_DF_RX = const(16)
DEVKIT_DF_BUSY = const(35)  # low = playing; external pull-up
DEVKIT_MOTOR = const(13)  # vibration motor MOSFET gate (optional); not 14: it toggles at boot

# --- oled: the same DevKitC plan, SSD1306 128x64 on I2C instead of the TFT ---
OLED_I2C_ID = const(0)
OLED_I2C_HZ = const(400_000)  # a full 1,024-byte frame is >= 23 ms on the wire
OLED_SDA = const(21)  # the DevKitC's usual I2C pins (the TFT's DC/CS are not fitted)
OLED_SCL = const(22)
OLED_ADDR = const(0x3C)  # 0x3D on modules with the address jumper moved
OLED_THROW = const(33)
OLED_REFEREE = const(27)
OLED_BUZZER = const(25)
OLED_LAMP = const(26)
OLED_DF_TX = const(17)  # the DevKitC plan's DFPlayer wiring, unchanged
OLED_DF_RX = const(16)
OLED_DF_BUSY = const(35)
OLED_MOTOR = const(13)  # the DevKitC plan's vibration motor, unchanged

# --- cyd: ESP32-2432S028R, 2.8" ILI9341 240x320 on HSPI, fixed board wiring ---
CYD_SPI_ID = const(1)  # HSPI
CYD_SPI_HZ = const(40_000_000)
CYD_SCK = const(14)
CYD_MOSI = const(13)
CYD_MISO = const(12)
CYD_CS = const(15)
CYD_DC = const(2)  # a strapping pin the board itself uses as DC: output only
CYD_RST = const(-1)  # the panel's reset is tied to EN
CYD_BL = const(21)  # backlight, active high; low at reset: light it before drawing
CYD_THROW = const(27)  # CN1 connector; add the 10 kOhm pull-up and RC of section 4.2
CYD_REFEREE = const(22)  # CN1 / P3 connector; same pull-up and RC
CYD_BUZZER = const(26)  # the SC8002B amplifier's input (speaker connector)
CYD_LED_RED = const(4)  # on-board RGB LED, active low: the ready lamp (green)
CYD_LED_GREEN = const(16)
CYD_LED_BLUE = const(17)
# Not used by the bowl, listed so nothing claims them: touch (XPT2046 on its own
# bus: CLK 25, MOSI 32, MISO 39, CS 33, IRQ 36), micro SD (VSPI 18/19/23, CS 5),
# light sensor 34, BOOT button 0 (strapping: never a player's switch).
# No speech module and no vibration motor: the board's connectors bring out
# no free output pin (P3's 35 is input only, 21 the backlight, 22 and 27 the
# switches; UART0 on P1 is the USB serial).  board.cyd builds no speaker.

# --- every profile ---
PRESSED = const(0)  # active low switches
WDT_MS = const(8000)  # hardware watchdog timeout; the feeder runs every second
TONE_DUTY = const(32768)  # duty_u16 at full volume: a 50 % square wave, the loudest
DF_UART_ID = const(2)  # the DFPlayer's UART (hardware/README.md 4.5)
DF_BAUD = const(9600)  # 8N1, the module's fixed rate
WDT_TIMER_ID = const(0)  # hardware timer that feeds the started WDT while the host syncs
