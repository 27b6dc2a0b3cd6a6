"""`bobing voice OUT_DIR`: the microSD card's clips, made for real with espeak-ng
and lame (.ci/run installs both), and checked as the DFPlayer would find them."""

import json
import os
import shutil
import subprocess
import sys
import wave

import pytest
import slowdown
from app import speech

from host_tools.cli import main
from host_tools.phrases import LANGUAGES, phrases, pinyin_numbered, spoken

BOBING = os.path.join(os.path.dirname(sys.executable), "bobing")


def bobing(*args):
    return subprocess.run([BOBING, *args], capture_output=True, text=True, timeout=slowdown.seconds(600))


def is_mp3(path):
    with open(path, "rb") as f:
        head = f.read(3)
    return head == b"ID3" or (head[0] == 0xFF and head[1] & 0xE0 == 0xE0)


@pytest.fixture(scope="module")
def card(made_once):
    """The whole card, every clip in every language (about 20 s on two cores)."""
    stdout, folder = made_once("card", make_card)
    return folder / "sd", stdout


def make_card(folder):
    proc = bobing("voice", str(folder / "sd"))
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_every_phrase_has_a_playable_clip_in_every_language_folder(card):
    out, _ = card
    table = phrases()
    assert sorted(os.listdir(out)) == ["01", "02", "03", "manifest.json"]
    for folder in ("01", "02", "03"):
        names = sorted(os.listdir(out / folder))
        # DFPlayer command 0x0F finds a file by the three digits its name starts with
        assert names == ["%03d.mp3" % clip for clip in table]
        for name in names:
            path = out / folder / name
            assert is_mp3(path) and path.stat().st_size > 1000, path


def test_the_manifest_covers_every_phrase_and_says_what_each_file_says(card):
    out, stdout = card
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    table = phrases()
    assert sorted(int(c) for c in manifest["clips"]) == sorted(table)
    zy = manifest["clips"][str(speech.CLIP_KIND + 6)]
    assert zy["hanzi"] == "状元"
    assert zy["files"]["01/107.mp3"] == {"espeak-ng": "cmn-latn-pinyin", "text": "zhuang4 yuan2"}
    assert zy["files"]["02/107.mp3"] == {"espeak-ng": "yue", "text": "状元"}
    assert zy["files"]["03/107.mp3"]["espeak-ng"] == "en"
    assert manifest["format"] == "mp3"
    assert "%d clips, %d files in 3 folders" % (len(table), 3 * len(table)) in stdout


def test_a_clip_is_a_short_spoken_phrase(card, tmp_path):
    """Decoded back, a clip is 44.1 kHz mono (a rate every DFPlayer plays) and
    lasts about as long as the phrase, with the lead-in of silence."""
    out, _ = card
    decoded = tmp_path / "decoded.wav"
    for path, low, high in (("01/107.mp3", 0.5, 2.0), ("03/001.mp3", 0.6, 2.5), ("02/142.mp3", 0.2, 1.2)):
        subprocess.run(["lame", "--quiet", "--decode", str(out / path), str(decoded)], check=True)
        with wave.open(str(decoded)) as w:
            assert (w.getframerate(), w.getnchannels()) == (44100, 1)
            assert low < w.getnframes() / w.getframerate() < high, path


def test_mandarin_is_read_from_pinyin_as_mandarin_syllables():
    """From characters espeak-ng's cmn voice reads 状元 half as English; the
    pinyin voice must never switch language for any phrase of the bowl."""
    assert pinyin_numbered("zhuàng yuán") == "zhuang4 yuan2"
    assert pinyin_numbered("nǚ lǜ") == "nv3 lv4"
    assert pinyin_numbered("de") == "de5"
    assert pinyin_numbered("zài àn yí cì") == "zai4 an4 yi2 ci4"
    from_characters = subprocess.run(
        ["espeak-ng", "-q", "-x", "-v", "cmn", "状元"], capture_output=True, text=True
    )
    assert "(en)" in from_characters.stdout  # the misreading this tool avoids
    table = phrases()
    texts = "\n".join(spoken(table[clip], 1) for clip in table)
    phonemes = subprocess.run(
        ["espeak-ng", "-q", "-x", "-v", "cmn-latn-pinyin"], input=texts, capture_output=True, text=True
    ).stdout
    assert "(en)" not in phonemes and phonemes.count("_|") >= len(table)


def test_english_says_the_chinese_words_it_borrows_in_english():
    table = phrases()
    for clip in table:
        assert not any("\u4e00" <= ch <= "\u9fff" for ch in spoken(table[clip], speech.ENGLISH)), clip


def test_a_human_recording_replaces_its_clip_and_can_add_a_language(tmp_path):
    recordings = tmp_path / "rec"
    (recordings / "01").mkdir(parents=True)
    (recordings / "04").mkdir()
    with wave.open(str(recordings / "01" / "107.wav"), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(22050)
        w.writeframes(b"\x10\x00\xf0\xff" * 11025)
    shutil.copyfile(recordings / "01" / "107.wav", recordings / "04" / "107_zhuangyuan_hokkien.wav")
    (recordings / "04" / "._107.wav").write_bytes(b"macOS resource fork")
    out = tmp_path / "card"
    proc = bobing("voice", str(out), "--clips", "101-113", "--recordings", str(recordings))
    assert proc.returncode == 0, proc.stderr
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["clips"]["107"]["files"]["01/107.mp3"] == {"recording": "107.wav"}
    assert manifest["clips"]["107"]["files"]["04/107.mp3"] == {"recording": "107_zhuangyuan_hokkien.wav"}
    assert manifest["clips"]["108"]["files"]["01/108.mp3"]["espeak-ng"] == "cmn-latn-pinyin"
    assert os.listdir(out / "04") == ["107.mp3"]
    assert manifest["folders"]["04"]["missing"] == [c for c in range(101, 114) if c != 107]
    assert "folder 04 (recordings only): no recording for clip 101, 102" in proc.stdout
    assert is_mp3(out / "01" / "107.mp3")


def test_wav_cards_need_no_encoder(tmp_path):
    proc = bobing("voice", str(tmp_path / "card"), "--wav", "--clips", "1,141-143")
    assert proc.returncode == 0, proc.stderr
    assert sorted(os.listdir(tmp_path / "card" / "02")) == ["001.wav", "141.wav", "142.wav", "143.wav"]
    with wave.open(str(tmp_path / "card" / "03" / "142.wav")) as w:
        assert w.getnchannels() == 1 and w.getnframes() > w.getframerate() // 4


@pytest.mark.parametrize(
    "args, message",
    [
        (["--clips", "999"], "there is no clip 999"),
        (["--clips", "1-x"], "expected numbers and ranges"),
        (["--recordings", "/nonexistent/rec"], "no such folder"),
        (["--jobs", "0"], "expected a whole number 1-64"),
    ],
)
def test_bad_input_is_one_line_and_writes_nothing(tmp_path, capsys, args, message):
    out = tmp_path / "card"
    assert main(["voice", str(out), *args]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err
    assert not out.exists() and os.listdir(tmp_path) == []


def test_out_dir_that_is_a_file_is_refused(tmp_path, capsys):
    target = tmp_path / "file"
    target.write_text("keep me")
    assert main(["voice", str(target)]) == 2
    assert "is a file" in capsys.readouterr().err and target.read_text() == "keep me"


def test_every_language_has_a_voice_and_a_folder():
    assert sorted(LANGUAGES) == [speech.MANDARIN, speech.CANTONESE, speech.ENGLISH]
