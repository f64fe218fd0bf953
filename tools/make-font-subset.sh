#!/usr/bin/env bash
# Makes assets/fonts/qiguo-kai.ttf: the few characters the game shows (stones and HUD), cut
# from AR PL UKai TW (kaishu, Arphic Public License) as packaged by Debian.
#
# Needs: apt-get install fonts-arphic-ukai; pip install fonttools
set -euo pipefail
cd "$(dirname "$0")/.."

source_font=/usr/share/fonts/truetype/arphic/ukai.ttc
# Pieces, the Emperor, the seven kingdoms, the game's title, the 1206 text quoted in the
# ally question, and the board's coordinates.
characters="將偏裨砲行人弓弩刀劍騎周秦楚韓齊魏趙燕七國象棋若擊與則盡撤去之，abcdefghijklmnopqrs0123456789"

pyftsubset "$source_font" \
  --font-number=2 \
  --text="$characters" \
  --layout-features='' \
  --no-hinting \
  --desubroutinize \
  --name-IDs='*' \
  --output-file=assets/fonts/qiguo-kai.ttf

# The licence asks modified fonts to say so: record it in the font's description.
python3 - <<'PY'
from fontTools.ttLib import TTFont
import datetime
path = "assets/fonts/qiguo-kai.ttf"
font = TTFont(path)
note = ("Subset of AR PL UKai TW made for the Qiguo game on %s: only the characters the game "
        "shows are kept. Licensed under the Arphic Public License." % datetime.date.today())
font["name"].setName(note, 10, 3, 1, 0x409)
font.save(path)
PY
echo "wrote assets/fonts/qiguo-kai.ttf ($(stat -c %s assets/fonts/qiguo-kai.ttf) bytes)"
