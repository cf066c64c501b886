"""The score chart's two drawings, as numbers for an SVG template (server-rendered, no JS).

1. Results over the campaign: one dot per game on a "win" or a "loss" line, joined in order,
   with the chapter under the first game of each chapter.
2. Gravehold's margin per game: a bar up for Gravehold's life left, and for a loss a bar down
   for the life the nemesis still had.

Sizes are in SVG units for a viewBox 360 wide, which a 390 px phone shows at about 1:1.
"""

from __future__ import annotations

from campaigns.games.aeonsend.state import ScoreRow

WIDTH = 360
LEFT = 44
RIGHT = 8
LABELS_UP_TO = 24  # more games than this and the numbers over the bars are left out


def _xs(count: int) -> tuple[list[float], float]:
    step = (WIDTH - LEFT - RIGHT) / max(count, 1)
    return [round(LEFT + step * (i + 0.5), 1) for i in range(count)], step


def results_chart(rows: list[ScoreRow]) -> dict[str, object] | None:
    if not rows:
        return None
    height, win_y, loss_y = 96, 20, 60
    xs, step = _xs(len(rows))
    points, chapters, last_chapter = [], [], None
    for number, (x, row) in enumerate(zip(xs, rows, strict=True), start=1):
        y = win_y if row["result"] == "win" else loss_y
        points.append(
            {"x": x, "y": y, "result": row["result"], "number": number, "row": row, "r": 6}
        )
        if row["chapter"] != last_chapter:
            chapters.append({"x": x, "chapter": row["chapter"]})
            last_chapter = row["chapter"]
    return {
        "width": WIDTH,
        "height": height,
        "win_y": win_y,
        "loss_y": loss_y,
        "label_x": LEFT - 6,
        "chapter_y": height - 6,
        "points": points,
        "line": " ".join(f"{p['x']},{p['y']}" for p in points),
        "chapters": chapters,
        "step": step,
    }


def margin_chart(rows: list[ScoreRow]) -> dict[str, object] | None:
    if not rows:
        return None
    up = max([row["gravehold"] for row in rows] + [1])
    down = max([row["nemesis_life"] for row in rows if row["result"] == "loss"] + [0])
    top_pad, bottom_pad, plot = 18, 34, 150
    scale = plot / (up + down)
    zero = round(top_pad + up * scale, 1)
    xs, step = _xs(len(rows))
    width = round(max(min(step * 0.6, 28), 2), 1)
    bars = []
    for number, (x, row) in enumerate(zip(xs, rows, strict=True), start=1):
        above = round(row["gravehold"] * scale, 1)
        below = round(row["nemesis_life"] * scale, 1) if row["result"] == "loss" else 0
        bars.append(
            {
                "number": number,
                "x": round(x - width / 2, 1),
                "cx": x,
                "w": width,
                "up_y": round(zero - above, 1),
                "up_h": max(above, 1),
                "down_h": below,
                "result": row["result"],
                "row": row,
                "up_label_y": round(zero - above - 3, 1),
                "down_label_y": round(zero + below + 13, 1),
            }
        )
    return {
        "width": WIDTH,
        "height": round(top_pad + plot + bottom_pad, 1),
        "zero": zero,
        "up": up,
        "down": down,
        "bars": bars,
        "labels": len(rows) <= LABELS_UP_TO,
        "label_x": LEFT - 6,
        "top_y": top_pad + 4,
        "bottom_y": round(top_pad + plot, 1),
        "numbers_y": round(top_pad + plot + bottom_pad - 4, 1),
    }
