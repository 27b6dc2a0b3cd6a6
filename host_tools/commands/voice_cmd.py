"""`bobing voice OUT_DIR`: every clip the bowl can say, for the DFPlayer's microSD card.

Card layout (what DFPlayer command 0x0F, "play file FFF of folder DD", needs):
    OUT_DIR/01/001.mp3 ..   Mandarin   espeak-ng cmn-latn-pinyin, from tone-numbered pinyin
    OUT_DIR/02/001.mp3 ..   Cantonese  espeak-ng yue, from the characters
    OUT_DIR/03/001.mp3 ..   English    espeak-ng en
    OUT_DIR/manifest.json   every clip number: the phrase, what each folder says, its source

Clip numbers are firmware/app/speech.py's.  Mandarin is read from pinyin, not
characters: espeak-ng's cmn voice reads 状元 half in English and 遍地锦's 地
as the particle "de"; its pinyin voice says every syllable as written.

A human recording replaces any clip: --recordings DIR with the card's layout
(DIR/01/007.wav or .mp3), any folder, also ones espeak-ng has no voice for
(04 for Hokkien, the Xiamen tongue).  Files are MP3 (lame, 44.1 kHz mono),
or WAV with --wav.
"""

import json
import os
import shutil
import subprocess
import tempfile
import time
import wave
from concurrent.futures import ThreadPoolExecutor

from host_tools.errors import UsageError
from host_tools.phrases import LANGUAGES, phrases, spoken

LEAD_IN_MS = 120  # silence before each clip: some DFPlayer clones clip a file's first ~100 ms
SAMPLE_RATE_KHZ = "44.1"  # resampled: the rate every DFPlayer variant plays


def register(sub):
    p = sub.add_parser("voice", help="make the speech clips for the DFPlayer's microSD card")
    p.add_argument("out_dir", metavar="OUT_DIR", help="the card's root (or a folder to copy onto it)")
    p.add_argument("--wav", action="store_true", help="WAV files instead of MP3 (no lame needed)")
    p.add_argument(
        "--recordings",
        metavar="DIR",
        help="human recordings laid out like the card (DIR/01/007.wav): each replaces its clip",
    )
    p.add_argument("--clips", metavar="LIST", help="only these clips, e.g. 1-10,101 (default: all)")
    p.add_argument(
        "--jobs",
        type=jobs_count,
        default=os.cpu_count() or 1,
        metavar="N",
        help="clips made at once (default: one per CPU)",
    )
    p.set_defaults(run=run)


def jobs_count(text):
    if not text.isascii() or not text.isdigit() or not 1 <= int(text) <= 64:
        raise UsageError("--jobs %r: expected a whole number 1-64" % text)
    return int(text)


def parse_clips(text, known):
    """'1-10,101' -> sorted clip numbers, each one the firmware has."""
    chosen = set()
    for part in text.split(","):
        low, _, high = part.strip().partition("-")
        if not low.isdigit() or (high and not high.isdigit()):
            raise UsageError("--clips %r: expected numbers and ranges such as 1-10,101" % text)
        for clip in range(int(low), int(high or low) + 1):
            if clip not in known:
                raise UsageError("--clips: there is no clip %d" % clip)
            chosen.add(clip)
    return sorted(chosen)


def find_recordings(root):
    """{(folder, clip): path} of the recordings under root (root/NN/CCC*.mp3|.wav)."""
    found = {}
    for folder_name in sorted(os.listdir(root)):
        folder_path = os.path.join(root, folder_name)
        if not (os.path.isdir(folder_path) and folder_name.isdigit() and 1 <= int(folder_name) <= 99):
            continue
        for name in sorted(os.listdir(folder_path)):
            stem, ext = os.path.splitext(name)
            if ext.lower() in (".mp3", ".wav") and stem[:3].isdigit() and not name.startswith("."):
                clip = int(stem[:3])
                if 1 <= clip <= 255:
                    found[(int(folder_name), clip)] = os.path.join(folder_path, name)
    return found


def _tool(name, package):
    path = shutil.which(name)
    if path is None:
        raise UsageError(
            "%s not found: install the Debian package %s (apt-get install %s)" % (name, package, package)
        )
    return path


def _synthesize(espeak, lame, voice, text, target):
    # espeak-ng -> WAV, a lead-in of silence, then MP3 through lame (or the WAV as is)
    with tempfile.TemporaryDirectory() as tmp:
        raw = os.path.join(tmp, "raw.wav")
        subprocess.run([espeak, "-v", voice, "-w", raw, text], check=True, capture_output=True)
        with wave.open(raw, "rb") as src:
            params = src.getparams()
            frames = src.readframes(src.getnframes())
        padded = os.path.join(tmp, "padded.wav") if lame else target
        with wave.open(padded, "wb") as dst:
            dst.setparams(params)
            dst.writeframes(
                b"\0" * (params.sampwidth * params.nchannels * params.framerate * LEAD_IN_MS // 1000)
            )
            dst.writeframes(frames)
        if lame:
            _encode(lame, padded, target)


def _encode(lame, wav_path, target):
    subprocess.run(
        [lame, "--quiet", "-m", "m", "--resample", SAMPLE_RATE_KHZ, "-b", "64", wav_path, target],
        check=True,
        capture_output=True,
    )


def _recorded(lame, source, target):
    if source.lower().endswith(".wav") and lame:
        _encode(lame, source, target)
    elif os.path.splitext(source)[1].lower() == os.path.splitext(target)[1]:
        shutil.copyfile(source, target)
    else:
        raise UsageError("recording %s: an MP3 cannot go on a WAV card (drop --wav or give a WAV)" % source)


def build(out_dir, clips, wav=False, recordings=None, jobs=1):
    """Write the card into out_dir; a failure leaves out_dir as it was (or absent).
    Returns the manifest."""
    table = phrases()
    espeak = _tool("espeak-ng", "espeak-ng")
    lame = None if wav else _tool("lame", "lame")
    ext = ".wav" if wav else ".mp3"
    recorded = find_recordings(recordings) if recordings else {}
    folders = sorted(set(LANGUAGES) | {folder for folder, _ in recorded})
    created = not os.path.exists(out_dir)
    os.makedirs(out_dir, exist_ok=True)
    # built in a hidden folder inside out_dir (the same file system, often the card itself),
    # moved into place only once every clip is made
    work = tempfile.mkdtemp(prefix=".voice-", dir=out_dir)
    done = False
    try:
        manifest = {
            "format": ext[1:],
            "play": "DFPlayer command 0x0F: folder = language, file = clip (firmware/app/speech.py)",
            "folders": {},
            "clips": {},
        }
        tasks = []
        for folder in folders:
            os.mkdir(os.path.join(work, "%02d" % folder))
            name, voice, _ = LANGUAGES.get(folder, ("recordings only", None, None))
            missing = [c for c in clips if voice is None and (folder, c) not in recorded]
            manifest["folders"]["%02d" % folder] = {"language": name, "voice": voice, "missing": missing}
        for clip in clips:
            hanzi, pinyin, english = table[clip]
            entry = {"hanzi": hanzi, "pinyin": pinyin, "english": english, "files": {}}
            for folder in folders:
                target = os.path.join("%02d" % folder, "%03d%s" % (clip, ext))
                path = os.path.join(work, target)
                if (folder, clip) in recorded:
                    source = recorded[(folder, clip)]
                    entry["files"][target] = {"recording": os.path.basename(source)}
                    tasks.append((_recorded, lame, source, path))
                elif folder in LANGUAGES:
                    voice = LANGUAGES[folder][1]
                    text = spoken(table[clip], folder)
                    entry["files"][target] = {"espeak-ng": voice, "text": text}
                    tasks.append((_synthesize, espeak, lame, voice, text, path))
            manifest["clips"][str(clip)] = entry
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            for future in [pool.submit(task[0], *task[1:]) for task in tasks]:
                future.result()
        with open(os.path.join(work, "manifest.json"), "w", encoding="utf-8") as f:
            json.dump(manifest, f, ensure_ascii=False, indent=1)
            f.write("\n")
        for name in sorted(os.listdir(work)):
            source = os.path.join(work, name)
            if os.path.isdir(source):
                os.makedirs(os.path.join(out_dir, name), exist_ok=True)
                for file_name in os.listdir(source):
                    os.replace(os.path.join(source, file_name), os.path.join(out_dir, name, file_name))
            else:
                os.replace(source, os.path.join(out_dir, name))
        done = True
        return manifest
    except subprocess.CalledProcessError as e:
        raise UsageError(
            "%s failed: %s" % (os.path.basename(e.cmd[0]), (e.stderr or b"").decode().strip())
        ) from None
    finally:
        shutil.rmtree(work, ignore_errors=True)
        if created and not done:
            shutil.rmtree(out_dir, ignore_errors=True)


def run(args):
    if os.path.exists(args.out_dir) and not os.path.isdir(args.out_dir):
        raise UsageError("OUT_DIR %s is a file, not a folder" % args.out_dir)
    if args.recordings and not os.path.isdir(args.recordings):
        raise UsageError("--recordings %s: no such folder" % args.recordings)
    table = phrases()
    clips = parse_clips(args.clips, table) if args.clips else sorted(table)
    start = time.monotonic()
    manifest = build(args.out_dir, clips, args.wav, args.recordings, args.jobs)
    files = sum(len(entry["files"]) for entry in manifest["clips"].values())
    print(
        "%d clips, %d files in %d folders written to %s in %.1f s"
        % (len(clips), files, len(manifest["folders"]), args.out_dir, time.monotonic() - start)
    )
    for folder, info in manifest["folders"].items():
        if info["missing"]:
            print(
                "folder %s (%s): no recording for clip %s"
                % (folder, info["language"], ", ".join(map(str, info["missing"])))
            )
    return 0
