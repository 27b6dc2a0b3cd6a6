"""Every sentence the bowl can show or speak, by number: (中文, pinyin, English).

TEXTS[n] is the sentence T_n as a (中文, pinyin, English) tuple, made when
asked: the table is one string, a line a sentence, because a tuple of three
strings per sentence would put every one of them in the heap when this
module is imported as .mpy, where one string stays in the image and costs
only its object (docs/memory.md).  len(TEXTS) counts them.

The application names texts by these numbers only; the screens draw them
(Chinese always, with pinyin or English below as the visitor setting says)
and the font generator subsets the CJK fonts to exactly the characters in
this table, bobing.names and the digits.  Award, tier and rule-preset names
come from bobing.names.  New texts are appended, never renumbered: the
speech clips are numbered the same way.
"""

from array import array

from micropython import const

T_PRESS_TO_THROW = const(0)
T_TURN = const(1)
T_PLAYER = const(2)
T_PRIZES_LEFT = const(3)
T_ZHUANGYUAN_HOLDER = const(4)
T_NO_ZHUANGYUAN = const(5)
T_NEW_ZHUANGYUAN = const(6)
T_WON = const(7)
T_NOTHING_WON = const(8)
T_TIER_EMPTY = const(9)
T_GAME_OVER = const(10)
T_AUDIT_CODE = const(11)
T_END_POOL_EMPTY = const(12)
T_END_LIUBO_HONG = const(13)
T_END_LIUBO_HEI = const(14)
T_END_BIANDIJIN = const(15)
T_OUT_OF_SERVICE = const(16)
T_RNG_FAILED = const(17)
T_FLASH_NEARLY_FULL = const(18)
T_FLASH_FULL = const(19)
T_SYNC_NEEDED = const(20)
T_RESUMED = const(21)
T_RELEASE_SWITCH = const(22)
T_VOID_ASK = const(23)
T_PRESS_AGAIN = const(24)
T_VOIDED = const(25)
T_ENTER_PIN = const(26)
T_WRONG_PIN = const(27)
T_MENU = const(28)
T_NEW_GAME = const(29)
T_PLAYERS = const(30)
T_RULES = const(31)
T_PRIZE_SETS = const(32)
T_WHO_STARTS = const(33)
T_DRAW = const(34)
T_SEAT_ONE = const(35)
T_VOLUME = const(36)
T_MUTE = const(37)
T_BRIGHTNESS = const(38)
T_LANGUAGE = const(39)
T_PINYIN = const(40)
T_ENGLISH = const(41)
T_ACCEPT_TIME = const(42)
T_REARM_TIME = const(43)
T_LONG_PRESS = const(44)
T_IDLE_TIMEOUT = const(45)
T_KIOSK = const(46)
T_PIN = const(47)
T_LIFETIME = const(48)
T_GAMES = const(49)
T_THROWS = const(50)
T_RECOVERIES = const(51)
T_BOOTS = const(52)
T_ABOUT = const(53)
T_RNG_TRUE = const(54)
T_RNG_PSEUDO = const(55)
T_SYNC_MODE = const(56)
T_BACK = const(57)
T_ON = const(58)
T_OFF = const(59)
T_SETTINGS = const(60)
T_SPEECH = const(61)
T_LARGE_TEXT = const(62)
T_STARTS = const(63)
T_SHARED = const(64)
T_PRIZE_LABELS = const(65)
T_TITLE = const(66)
T_VERSION = const(67)
T_BOARD = const(68)
T_VIBRATION = const(69)
T_HIGH_CONTRAST = const(70)
T_ONE_SWITCH = const(71)
T_AGAIN = const(72)
T_STANDINGS = const(73)
T_STORAGE_DAMAGED = const(74)
T_FORMAT_STORAGE = const(75)
T_SYNC_OR_IMPORT = const(76)
T_RECORDS_LOST = const(77)

_TABLE = """\
按键掷骰|àn jiàn zhì tóu|Press to throw
轮到|lún dào|Turn
玩家|wán jiā|Player
剩余奖品|shèng yú jiǎng pǐn|Prizes left
状元在|zhuàng yuán zài|状元 held by
暂无状元|zàn wú zhuàng yuán|No 状元 yet
新状元|xīn zhuàng yuán|New 状元
获得|huò dé|Wins
无奖|wú jiǎng|No prize
已领完|yǐ lǐng wán|all taken
游戏结束|yóu xì jié shù|Game over
审计码|shěn jì mǎ|Audit code
奖品领完|jiǎng pǐn lǐng wán|Every prize is won
六勃红 通吃|liù bó hóng tōng chī|Six reds take everything
六勃黑 抢饼|liù bó hēi qiǎng bǐng|Six blacks: grab the cakes
遍地锦 通吃|biàn dì jǐn tōng chī|Six ones take everything
暂停服务|zàn tíng fú wù|Out of service
随机数检测失败|suí jī shù jiǎn cè shī bài|Random number test failed
存储将满|cún chǔ jiāng mǎn|Flash nearly full
存储已满|cún chǔ yǐ mǎn|Flash full
请同步记录|qǐng tóng bù jì lù|Sync needed
断电后已恢复|duàn diàn hòu yǐ huī fù|Resumed after a power cut
请松开按键|qǐng sōng kāi àn jiàn|Release the switch
跳猴 本轮作废?|tiào hóu běn lún zuò fèi|跳猴: void this turn?
再按一次确认|zài àn yí cì què rèn|Press again to confirm
本轮已作废|běn lún yǐ zuò fèi|Turn voided
输入密码|shū rù mì mǎ|Enter PIN
密码错误|mì mǎ cuò wù|Wrong PIN
菜单|cài dān|Menu
新游戏|xīn yóu xì|New game
玩家人数|wán jiā rén shù|Players
规则|guī zé|Rules
奖品套数|jiǎng pǐn tào shù|Prize sets
谁先掷|shéi xiān zhì|Who starts
答起|dā qǐ|Draw
一号先|yī hào xiān|Player 1
音量|yīn liàng|Volume
静音|jìng yīn|Mute
亮度|liàng dù|Brightness
语言|yǔ yán|Language
拼音|pīn yīn|Pinyin
英文|yīng wén|English
确认时间|què rèn shí jiān|Acceptance time
复位时间|fù wèi shí jiān|Re-arm time
长按时间|cháng àn shí jiān|Long press
待机时间|dài jī shí jiān|Idle timeout
展台模式|zhǎn tái mó shì|Kiosk mode
密码|mì mǎ|PIN
累计|lěi jì|Lifetime
局数|jú shù|Games
掷数|zhì shù|Throws
断电恢复|duàn diàn huī fù|Power-cut recoveries
开机次数|kāi jī cì shù|Boots
关于|guān yú|About
真随机 (射频开)|zhēn suí jī|RNG: RF on
伪随机|wěi suí jī|RNG: pseudo-random
同步模式|tóng bù mó shì|Sync mode
返回|fǎn huí|Back
开|kāi|On
关|guān|Off
设置|shè zhì|Settings
语音|yǔ yīn|Speech
大字|dà zì|Large text
先掷|xiān zhì|starts
共享|gòng xiǎng|shared
奖品名称|jiǎng pǐn míng chēng|Prize names
博饼|bó bǐng|Bobing: the Mid-Autumn dice game
版本|bǎn běn|Version
主板|zhǔ bǎn|Board
震动|zhèn dòng|Vibration
高对比度|gāo duì bǐ dù|High contrast
单键模式|dān jiàn mó shì|One-switch scan
再一次|zài yí cì|Say it again
玩家奖品|wán jiā jiǎng pǐn|Standings
存储损坏|cún chǔ sǔn huài|Storage damaged
格式化存储|gé shì huà cún chǔ|Format storage: every record is lost
请同步或导入|qǐng tóng bù huò dǎo rù|Sync or import
记录全部丢失|jì lù quán bù diū shī|Every record is lost
"""


class _Sentences:
    """The table as a read-only sequence: TEXTS[n] -> (中文, pinyin, English)."""

    def __len__(self):
        return _TABLE.count("\n")

    def __getitem__(self, n):
        if n < 0:
            n += len(self)
        pos = 0
        for _ in range(n):
            pos = _TABLE.find("\n", pos) + 1
        end = _TABLE.find("\n", pos)
        if n < 0 or end < 0:
            raise IndexError("no text %d" % n)
        line = _TABLE[pos:end]
        a = line.find("|")
        b = line.find("|", a + 1)
        return (line[:a], line[a + 1 : b], line[b + 1 :])


TEXTS = _Sentences()


class Table:
    """A str table, a row a line and `|` between its fields, read in place.

    field() and end() give a field as a range of bytes of `raw` (a view of
    the str's UTF-8, in the flash when the module is), which display.font
    decodes and draws: no string or tuple is made, where TEXTS[n] makes
    four, and a throw draws a dozen sentences (docs/screens.md)."""

    def __init__(self, text):
        try:
            raw = memoryview(text)
        except TypeError:  # CPython (host tools): a copy
            raw = text.encode()
        self.raw = raw
        count = 1
        for i in range(len(raw)):
            if raw[i] == 10:
                count += 1
        rows = array("H", bytes(2 * count))  # where each row starts, exactly sized
        count = 1
        for i in range(len(raw)):
            if raw[i] == 10:
                rows[count] = i + 1
                count += 1
        self._rows = rows

    def field(self, row, k):
        """Where field k (0: 中文, 1: pinyin, 2: English) of `row` starts in raw."""
        raw = self.raw
        pos = self._rows[row]
        while k:
            while raw[pos] != 124:  # "|"
                pos += 1
            pos += 1
            k -= 1
        return pos

    def end(self, lo):
        """Where the field starting at lo ends in raw."""
        raw = self.raw
        size = len(raw)
        while lo < size and raw[lo] != 124 and raw[lo] != 10:
            lo += 1
        return lo


SENTENCES = Table(_TABLE)  # TEXTS, read in place


def end_text(reason):
    """The sentence of a game's end reason (bobing.events END_POOL_EMPTY..
    END_BIANDIJIN, 1..4: T_END_POOL_EMPTY..T_END_BIANDIJIN in that order),
    T_GAME_OVER for any other."""
    return T_END_POOL_EMPTY - 1 + reason if 0 < reason <= 4 else T_GAME_OVER
