"""Reading six dice as a person types them: `444411`, `4 4 4 4 1 1`, `4,4,4,4,1,1`,
full-width digits from a Chinese input method (４４４４１１), a `#` comment after
the throw, a UTF-8 byte order mark at the start of a file.  `play`, `replay` and
`classify` all read throws through here, so they accept the same forms.
"""

import unicodedata

from host_tools.errors import UsageError

# Between the six digits: spaces (full-width ones become plain under NFKC), commas, dashes.
_SEPARATORS = " \t,;-/、"


def clean_line(text):
    """A line without its BOM, its `#` comment, its outer spaces, in NFKC form
    (full-width digits, letters, colon and number sign become plain ASCII)."""
    text = unicodedata.normalize("NFKC", text.lstrip("\ufeff"))
    return text.split("#", 1)[0].strip()


def looks_like_dice(text):
    """True if a cleaned line is made only of digits and separators (a throw,
    perhaps a wrong one, rather than a command or a setting)."""
    return any(c.isdigit() for c in text) and all(c.isdigit() or c in _SEPARATORS for c in text)


def parse_dice(text, count=6):
    """Six dice 1..6 (or `count`: the 答起 draw's) from one throw as typed; UsageError
    quotes the text as given."""
    cleaned = clean_line(text)
    digits = [c for c in cleaned if c not in _SEPARATORS]
    if len(digits) != count or not all(c.isascii() and c.isdigit() for c in digits):
        raise UsageError("throw %r: expected %s digits 1-6" % (text, "six" if count == 6 else count))
    dice = [int(c) for c in digits]
    for d in dice:
        if not 1 <= d <= 6:
            raise UsageError("throw %r: die value %d is not 1-6" % (text, d))
    return dice
