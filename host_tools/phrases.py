"""Every phrase the bowl can say, and what each voice of `bobing voice` is given to say it.

The clips are firmware/app/speech.py's (its numbers, its table of phrases), with the
names of bobing.names and display.texts.  `bobing voice` records them; the virtual
bowl (host_tools/sim/story.py) shows their words as it speaks them.
"""

import unicodedata

from app import speech
from display.texts import TEXTS

from bobing.names import KIND_NAMES, TIER_NAMES

# folder: (name, espeak-ng voice, which of (汉字, pinyin, English) it reads)
LANGUAGES = {
    1: ("Mandarin", "cmn-latn-pinyin", 1),
    2: ("Cantonese", "yue", 0),
    3: ("English", "en", 2),
}
# Words the English line borrows from Chinese, as an English voice should say them.
ENGLISH_SPOKEN = (("状元", "Champion"), ("跳猴:", "Tiao hou!"))


def phrases():
    """{clip: (汉字, pinyin with tone marks, English)}: every clip the firmware can say."""
    table = {}
    for number, text in enumerate(TEXTS):
        table[speech.CLIP_TEXT + number] = text
    for kind, names in enumerate(KIND_NAMES):
        table[speech.CLIP_KIND + kind] = names
    for tier, names in enumerate(TIER_NAMES):
        table[speech.CLIP_TIER + tier] = names
    for line in speech.PHRASES.split("\n"):
        clip, hanzi, pinyin, english = line.split("|")
        table[int(clip)] = (hanzi, pinyin, english)
    return dict(sorted(table.items()))


_TONE_MARKS = {"\u0304": "1", "\u0301": "2", "\u030c": "3", "\u0300": "4"}


def pinyin_numbered(pinyin):
    """'zhuàng yuán' -> 'zhuang4 yuan2'; a syllable with no mark gets 5 (neutral)."""
    out = []
    for syllable in pinyin.split():
        tone = "5"
        letters = []
        for ch in unicodedata.normalize("NFD", syllable):
            if ch in _TONE_MARKS:
                tone = _TONE_MARKS[ch]
            elif ch == "\u0308":  # ü: espeak-ng's pinyin writes it v
                letters[-1] = "v"
            elif ch.isalpha():
                letters.append(ch.lower())
        if letters:
            out.append("".join(letters) + tone)
    return " ".join(out)


def spoken(clip_phrase, folder):
    """What the folder's voice is given for a phrase (汉字, pinyin, English)."""
    column = LANGUAGES[folder][2]
    if column == 1:
        return pinyin_numbered(clip_phrase[1])
    text = clip_phrase[column]
    if column == 2:
        for chinese, english in ENGLISH_SPOKEN:
            text = text.replace(chinese, english)
    return text
