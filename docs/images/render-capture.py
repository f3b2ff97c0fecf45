#!/usr/bin/env python3
"""Renders a `tmux capture-pane -e -p` capture (text with SGR colour codes) to a PNG, so the
README shows the real terminal, not a mock-up.

Usage: render-capture.py CAPTURE.txt OUT.png   (needs Pillow and the DejaVu Sans Mono font)
"""
import re
import sys

from PIL import Image, ImageDraw, ImageFont

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf"
SIZE = 18
BACKGROUND = (24, 24, 28)
FOREGROUND = (220, 220, 220)
BASIC = [(0, 0, 0), (205, 49, 49), (13, 188, 121), (229, 229, 16), (36, 114, 200), (188, 63, 188),
         (17, 168, 205), (229, 229, 229), (102, 102, 102), (241, 76, 76), (35, 209, 139), (245, 245, 67),
         (59, 142, 234), (214, 112, 214), (41, 184, 219), (255, 255, 255)]


def xterm256(index):
    if index < 16:
        return BASIC[index]
    if index < 232:
        index -= 16
        steps = [0, 95, 135, 175, 215, 255]
        return (steps[index // 36], steps[(index // 6) % 6], steps[index % 6])
    grey = 8 + (index - 232) * 10
    return (grey, grey, grey)


def apply_sgr(params, state):
    codes = [int(p) if p else 0 for p in params.split(";")] if params else [0]
    i = 0
    while i < len(codes):
        code = codes[i]
        if code == 0:
            state.update(fg=None, bg=None, bold=False, reverse=False)
        elif code == 1:
            state["bold"] = True
        elif code == 22:
            state["bold"] = False
        elif code == 7:
            state["reverse"] = True
        elif code == 27:
            state["reverse"] = False
        elif code in (38, 48) and i + 1 < len(codes):
            key = "fg" if code == 38 else "bg"
            if codes[i + 1] == 5:
                state[key] = xterm256(codes[i + 2])
                i += 2
            elif codes[i + 1] == 2:
                state[key] = tuple(codes[i + 2:i + 5])
                i += 4
        elif code == 39:
            state["fg"] = None
        elif code == 49:
            state["bg"] = None
        elif 30 <= code <= 37:
            state["fg"] = BASIC[code - 30]
        elif 90 <= code <= 97:
            state["fg"] = BASIC[code - 90 + 8]
        i += 1


def main(capture_path, out_path):
    lines = open(capture_path, encoding="utf-8").read().rstrip("\n").split("\n")
    font = ImageFont.truetype(FONT, SIZE)
    bold = ImageFont.truetype(BOLD, SIZE)
    cell_w = round(font.getlength("M"))
    cell_h = SIZE + 6
    columns = max(len(re.sub(r"\x1b\[[0-9;]*m", "", line)) for line in lines)
    image = Image.new("RGB", (cell_w * columns + 32, cell_h * len(lines) + 32), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for row, line in enumerate(lines):
        # tmux starts every captured line with the attributes it needs.
        state = dict(fg=None, bg=None, bold=False, reverse=False)
        column = 0
        for token in re.split(r"(\x1b\[[0-9;]*m)", line):
            if token.startswith("\x1b["):
                apply_sgr(token[2:-1], state)
                continue
            for character in token:
                fg = state["fg"] or FOREGROUND
                bg = state["bg"]
                if state["reverse"]:
                    fg, bg = (bg or BACKGROUND), fg
                x, y = 16 + column * cell_w, 16 + row * cell_h
                if bg:
                    draw.rectangle([x, y, x + cell_w, y + cell_h], fill=bg)
                draw.text((x, y + 2), character, font=bold if state["bold"] else font, fill=fg)
                column += 1
    image.save(out_path)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
