#!/usr/bin/env bash
# Makes assets/fonts/qiguo-kai.ttf from AR PL UKai TW (kaishu, Arphic Public License) as
# packaged by Debian: the characters the game shows (stones, title, the 1206 text it quotes,
# the board's coordinates) and the common characters of both Chinese scripts, so that any
# usual name typed in traditional or simplified Chinese has its glyphs:
#   - Big5 level 1, the 5,401 frequently used traditional characters (0xA440-0xC67E);
#   - GB 2312 level 1, the 3,755 most common simplified characters (rows 16-55);
#   - CJK symbols and punctuation (U+3000-U+303F) and the full-width forms (U+FF01-U+FF5E).
# It also writes the characters kept to assets/fonts/qiguo-kai-chars.txt, which the tests
# check against the font.
#
# Needs: apt-get install fonts-arphic-ukai; pip install fonttools
set -euo pipefail
cd "$(dirname "$0")/.."

source_font=/usr/share/fonts/truetype/arphic/ukai.ttc
# Pieces, the Emperor, the seven kingdoms, the game's title, the 1206 text quoted in the
# ally question, and the board's coordinates.
game_characters="將偏裨砲行人弓弩刀劍騎周秦楚韓齊魏趙燕七國象棋若擊與則盡撤去之，abcdefghijklmnopqrs0123456789"

python3 - "$game_characters" "$source_font" > assets/fonts/qiguo-kai-chars.txt <<'PY'
import sys

def decoded(codec, pairs):
    for pair in pairs:
        try:
            yield bytes(pair).decode(codec)
        except UnicodeDecodeError:
            pass

big5 = ((hi, lo) for hi in range(0xA4, 0xC7)
        for lo in [*range(0x40, 0x7F), *range(0xA1, 0xFF)] if (hi, lo) <= (0xC6, 0x7E))
gb2312 = ((0xA0 + row, 0xA0 + col) for row in range(16, 56) for col in range(1, 95))
kept = set(decoded("big5", big5)) | set(decoded("gb2312", gb2312))
kept |= {chr(c) for c in [*range(0x3000, 0x3040), *range(0xFF01, 0xFF5F)]}
kept |= set(sys.argv[1])
# Only what the font has (a few rare symbols of the punctuation block are not drawn).
from fontTools.ttLib import TTCollection
cmap = TTCollection(sys.argv[2]).fonts[2].getBestCmap()
sys.stdout.write("".join(sorted(c for c in kept if ord(c) in cmap)) + "\n")
PY

pyftsubset "$source_font" \
  --font-number=2 \
  --text-file=assets/fonts/qiguo-kai-chars.txt \
  --layout-features='' \
  --no-hinting \
  --desubroutinize \
  --name-IDs='*' \
  --output-file=assets/fonts/qiguo-kai.ttf

# The licence asks modified fonts to say so: each cut records it in its description (name ID
# 10), with what it keeps; and says what it wrote.
noted() {
  local path=$1 chars=$2 made_for=$3 kept=$4
  python3 - "$path" "$made_for" "$kept" <<'PY'
import datetime, sys
from fontTools.ttLib import TTFont
path, made_for, kept = sys.argv[1:4]
font = TTFont(path)
note = ("Subset of AR PL UKai TW made for %s on %s: the characters the game shows and %s are "
        "kept. Licensed under the Arphic Public License."
        % (made_for, datetime.date.today(), kept))
font["name"].setName(note, 10, 3, 1, 0x409)
font.save(path)
PY
  echo "wrote $path ($(stat -c %s "$path") bytes, $(($(wc -m < "$chars") - 1)) characters)"
}
noted assets/fonts/qiguo-kai.ttf assets/fonts/qiguo-kai-chars.txt "the Qiguo game" \
  "the common traditional (Big5 level 1) and simplified (GB 2312 level 1) characters"

# The page's own cut (assets/fonts/qiguo-kai-core.ttf), in the wasm the browser downloads before
# the first board: the characters the game shows and every Chinese character of its interface,
# lessons and sources (so that the whole interface reads in traditional Chinese at once). The
# page fetches the full cut above beside it once the board is drawn, for players' names.
python3 - "$game_characters" > assets/fonts/qiguo-kai-core-chars.txt <<'PY'
import glob, sys
kept = set(sys.argv[1])
for path in glob.glob("assets/i18n/*.ftl") + glob.glob("assets/lessons/*.ron") \
        + glob.glob("src/**/*.rs", recursive=True) \
        + glob.glob("crates/qiguo-rules/src/**/*.rs", recursive=True) \
        + glob.glob("crates/qiguo-picture/src/**/*.rs", recursive=True):
    with open(path, encoding="utf-8") as f:
        kept |= {c for c in f.read() if ord(c) >= 0x2E80}
full = open("assets/fonts/qiguo-kai-chars.txt", encoding="utf-8").read()
sys.stdout.write("".join(sorted(c for c in kept if c in full)) + "\n")
PY
pyftsubset assets/fonts/qiguo-kai.ttf \
  --text-file=assets/fonts/qiguo-kai-core-chars.txt \
  --layout-features='' \
  --no-hinting \
  --name-IDs='*' \
  --output-file=assets/fonts/qiguo-kai-core.ttf
noted assets/fonts/qiguo-kai-core.ttf assets/fonts/qiguo-kai-core-chars.txt \
  "the Qiguo game's web page" "those of its interface"
