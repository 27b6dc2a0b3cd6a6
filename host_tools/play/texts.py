"""Every sentence `play` and `replay` print, in Chinese and in English.

T[key] is (中文, English), a %-format over named fields.  Texts(lang) picks one
language; in English the throw, tier and prize names are English, with the
Chinese after them (the game's own words, as the bowl shows and says them).
"""

import sys
import unicodedata

LANGS = ("zh", "en")

T = {
    # --- play ----------------------------------------------------------------
    "draw": (
        "答起：%(name)s 掷 %(n)d 颗骰子 %(dice)s，共 %(sum)d 点，由 %(first)s 先掷。",
        "Starter draw (答起): %(name)s throws %(n)d dice: %(dice)s = %(sum)d, so %(first)s starts.",
    ),
    "saving": ("每一掷都自动保存到 %(path)s", "Every throw is saved to %(path)s"),
    "resumed": (
        "继续 %(path)s 里的这一局（已进行 %(n)d 次）",
        "Resuming the game in %(path)s (%(n)d turns so far)",
    ),
    "help1": (
        "回车：电脑掷骰    输入六个点数（如 444411 或 4 4 4 4 1 1）：记下真骰子",
        "Enter: the computer throws   six faces (444411, 4 4 4 4 1 1): a real throw",
    ),
    "help_keeper": (
        "记分模式：输入真骰子的六个点数（如 444411），单按回车不掷骰",
        "Keeping score: type each real throw (444411); Enter alone throws nothing",
    ),
    "keeper_on": (
        "记下了真骰子：从现在起是记分模式，单按回车不再掷骰",
        "A real throw typed: keeping score from now on, Enter alone no longer throws",
    ),
    "keeper_enter": (
        "（记分模式：请输入六个点数；回车不掷骰）",
        "(keeping score: type the six faces; Enter alone throws nothing)",
    ),
    "draw_ask": (
        "答起：%(name)s 掷 %(n)d 颗骰子，输入点数 > ",
        "Starter draw (答起): %(name)s throws %(n)d dice; type them > ",
    ),
    "bad_draw": ("点数 %(text)s 不对：要 %(n)d 个 1-6 的数字", "%(text)s: %(n)d faces 1-6 are needed"),
    "not_started": ("没有开始新的一局。", "No game started."),
    "end_prompt": (
        "u：撤销最后一掷  回车：结束 > ",
        "u: take back the last turn   Enter: done > ",
    ),
    "end_prompt_keeper": (
        "u：撤销最后一掷  q：结束 > ",
        "u: take back the last turn   q: done > ",
    ),
    "pick_head": ("有 %(n)d 局没有下完：", "%(n)d unfinished games:"),
    "pick_item": (
        "  %(i)d. %(when)s  %(players)s  已进行 %(turns)d 次  %(file)s",
        "  %(i)d. %(when)s  %(players)s  %(turns)d turns  %(file)s",
    ),
    "pick_players": ("%(n)d 人", "%(n)d players"),
    "pick_ask": ("继续哪一局？（1-%(n)d，回车选 1）> ", "Which one? (1-%(n)d, Enter: 1) > "),
    "pick_again": ("请输入 1-%(n)d", "1-%(n)d, please"),
    "help2": (
        "v：跳猴（本掷作废）  u：撤销  s：积分  q：结束  ?：帮助",
        "v: void (跳猴)   u: undo   s: standings   q: quit   ?: help",
    ),
    "status": ("奖池 %(pool)s ｜ 状元：%(holder)s", "left: %(pool)s | Champion (状元): %(holder)s"),
    "nobody": ("暂无", "nobody yet"),
    "holder_throw": ("%(name)s %(throw)s", "%(name)s, %(throw)s"),
    "prompt": ("%(name)s 掷 > ", "%(name)s to throw > "),
    "bad_dice": ("点数 %(text)s 不对：要六个 1-6 的数字", "%(text)s: six faces 1-6 are needed"),
    "unknown": ("看不懂 %(text)s（输入 ? 看帮助）", "unknown %(text)s (? for help)"),
    "undone": ("已撤销 %(name)s 的 %(what)s", "undone: %(name)s's %(what)s"),
    "undo_void": ("跳猴", "void"),
    "nothing_to_undo": ("还没有可撤销的一掷", "nothing to undo: no turn yet"),
    "quit_ask": (
        "确定结束吗？本局已保存，以后可以继续 (y/N) > ",
        "Stop here? The game is saved for later (y/N) > ",
    ),
    "yes": ("y是好对", "y"),
    "unfinished": ("本局未完。", "Game left unfinished."),
    "interrupted": ("已中断。", "Interrupted."),
    "resume_hint": (
        "继续本局：%(command)s play --resume %(quoted)s",
        "To continue: %(command)s play --resume %(quoted)s",
    ),
    "not_saved": ("（最后几掷没能保存：%(why)s）", "(the last throws could not be saved: %(why)s)"),
    "save_failed": ("无法保存到 %(path)s：%(why)s，游戏继续", "cannot save to %(path)s: %(why)s; playing on"),
    "saved_at": (
        "本局记录在 %(path)s，重放：%(command)s replay %(quoted)s",
        "The game is recorded in %(path)s; to play it back: %(command)s replay %(quoted)s",
    ),
    "already_over": ("这一局已经结束。", "This game is already over."),
    # --- events ----------------------------------------------------------------
    "throw": ("%(name)s 掷出 %(dice)s：%(award)s", "%(name)s throws %(dice)s: %(award)s"),
    "no_award": ("没有奖", "nothing"),
    "void": ("%(name)s 跳猴：本掷作废，没有奖", "%(name)s: void throw (跳猴), wins nothing"),
    "skip": ("%(name)s 停掷一轮", "%(name)s sits this turn out"),
    "award": ("  %(name)s 得 %(count)d 个%(tier)s", "  %(name)s wins %(count)d x %(tier)s"),
    "take": (
        "  %(name)s 从 %(source)s 那里拿走 %(count)d 个%(tier)s",
        "  %(name)s takes %(count)d x %(tier)s from %(source)s",
    ),
    "share": (
        "  剩下的 %(count)d 个%(tier)s 大家平分",
        "  the %(count)d x %(tier)s left are shared by everyone",
    ),
    "grab": (
        "  抢饼：剩下的 %(count)d 个%(tier)s 由大家抢",
        "  grab (抢饼): everyone grabs the %(count)d x %(tier)s left",
    ),
    "miss": ("  %(tier)s已经博完，这一项没有奖", "  %(tier)s all gone: nothing won for it"),
    "exhausted": ("  %(tier)s全部博完", "  last %(tier)s taken"),
    "zy_first": (
        "  ★ %(name)s 暂得状元（%(throw)s）",
        "  ★ %(name)s is the Champion (状元) for now",
    ),
    "zy_higher": (
        "  ★ %(name)s 的%(throw)s胜过 %(old)s 的%(old_throw)s，状元归 %(name)s",
        "  ★ %(name)s's %(throw)s beats %(old)s's %(old_throw)s: %(name)s is the Champion now",
    ),
    "zy_lugu": (
        "  ★ 禄骨：%(old)s 新掷的%(throw)s替掉了原来的%(old_throw)s，状元归 %(name)s（%(new_throw)s）",
        "  ★ %(old)s's new %(throw)s replaces their %(old_throw)s (禄骨): "
        "%(name)s is the Champion now, with %(new_throw)s",
    ),
    "zy_tie": (
        "  ★ 平手：%(old)s 新掷的%(throw)s与 %(name)s 的相同，先掷者为准，状元归 %(name)s",
        "  ★ tie: %(old)s's new %(throw)s equals %(name)s's, and the earlier one wins: "
        "%(name)s is the Champion now",
    ),
    "zy_none": ("  现在没有人持有状元", "  nobody holds the Champion (状元) now"),
    "zy_lugu_own": (
        "  禄骨：%(name)s 新掷的%(throw)s替掉了原来的%(old_throw)s",
        "  %(name)s's new %(throw)s replaces their %(old_throw)s (禄骨)",
    ),
    "zy_stays_tie": (
        "  状元仍归 %(holder)s：相同的%(top_throw)s，先掷者为准",
        "  %(holder)s stays the Champion: an equal %(top_throw)s, thrown earlier",
    ),
    "zy_stays_below": (
        "  状元仍归 %(holder)s：%(top_throw)s更大",
        "  %(holder)s stays the Champion: %(top_throw)s ranks higher",
    ),
    "zy_kept": (
        "  %(name)s 的%(old_throw)s不会被替掉，这一掷不算状元",
        "  %(name)s keeps their %(old_throw)s, which cannot be replaced: this throw does not count",
    ),
    "end_pool_empty": ("游戏结束：奖品全部博完", "game over: every prize has been won"),
    "end_liubo_hong": (
        "游戏结束：%(name)s 掷出%(throw)s，通吃",
        "game over: %(name)s threw %(throw)s and takes it all",
    ),
    "end_liubo_hei": (
        "游戏结束：%(name)s 掷出%(throw)s，剩下的奖品大家平分",
        "game over: %(name)s threw %(throw)s; the prizes left are shared by everyone",
    ),
    "end_grab": (
        "游戏结束：%(name)s 掷出%(throw)s，抢饼！剩下的奖品由大家抢",
        "game over: %(name)s threw %(throw)s: grab (抢饼)! everyone grabs the prizes left",
    ),
    "end_biandijin": (
        "游戏结束：%(name)s 掷出%(throw)s，拿走奖池里全部奖品",
        "game over: %(name)s threw %(throw)s and takes every prize left",
    ),
    "winners": ("状元：%(list)s", "Champion (状元): %(list)s"),
    "winner": ("%(name)s（%(throw)s %(dice)s）", "%(name)s with %(throw)s, %(dice)s"),
    "winner_all": ("%(name)s（%(n)d 个状元）", "%(name)s (%(n)d Champion prizes)"),
    "no_winner": ("状元：没有人得到", "Champion (状元): nobody won it"),
    "zy_grabbed": ("状元：由大家抢", "Champion (状元): grabbed by everyone"),
    "zy_shared": ("状元：大家平分", "Champion (状元): shared by everyone"),
    # --- standings ----------------------------------------------------------
    "player": ("玩家", "player"),
    "left": ("奖池", "left"),
    "shared": ("大家", "shared"),
    "holder_mark": ("← 状元（暂）", "<- Champion"),
    "default_name": ("%(n)d号", "player %(n)d"),
    # --- replay -----------------------------------------------------------
    "applied": ("共 %(n)d 掷，%(state)s", "%(n)d throws applied, game %(state)s"),
    "ended": ("游戏已结束", "ended"),
    "holder": ("状元（暂）：%(holder)s", "Champion (状元) so far: %(holder)s"),
    "going": ("游戏未完", "still going"),
    "ignored": ("游戏结束后的 %(n)d 行没有使用", "%(n)d lines after the game's end were ignored"),
    "ignored_more": (
        "游戏结束后还有至少 %(n)d 行，没有读取",
        "at least %(n)d lines after the game's end were ignored, and not read",
    ),
}


class Texts:
    """The sentences of one language: texts("key", field=value, ...)."""

    def __init__(self, lang):
        self.lang = lang
        self.index = LANGS.index(lang)

    def __call__(self, key, **fields):
        return T[key][self.index] % fields if fields else T[key][self.index]


def default_lang():
    """Chinese, unless the terminal cannot show it (an ASCII or Latin-1 locale)."""
    encoding = getattr(sys.stdout, "encoding", None) or "ascii"
    try:
        "状元".encode(encoding)
    except (UnicodeError, LookupError):
        return "en"
    return "zh"


def add_lang_argument(parser):
    parser.add_argument(
        "--lang",
        choices=LANGS,
        default=None,
        help="zh: 中文 (default), en: English (default where the terminal cannot show Chinese)",
    )


def texts_from_args(args):
    return Texts(args.lang or default_lang())


def width(text):
    """Terminal columns of text: East Asian wide and full-width characters take two, and so
    do ambiguous ones (★, ×), as a Chinese terminal shows them."""
    return sum(2 if unicodedata.east_asian_width(c) in "WFA" else 1 for c in text)


def pad(text, columns, right=False):
    """text padded with spaces to `columns` terminal columns."""
    fill = " " * max(0, columns - width(text))
    return fill + text if right else text + fill
