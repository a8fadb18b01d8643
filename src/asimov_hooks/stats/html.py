"""`asimov-hooks stats --format html`: one self-contained page. Inline SVG charts (each
file kind's sizes over time, and their distribution against the limits), inline CSS,
no script, no image, no link to anything outside the page."""

from __future__ import annotations

from html import escape

from .summary import writes
from .text import render as render_text
from .text import when

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import Any

W, H, PAD = 640, 240, 40  # chart size and margin, in SVG user units
STYLE = """
body{font:14px/1.4 system-ui,sans-serif;margin:2em;max-width:60em;color:#222}
pre{background:#f6f6f6;padding:1em;overflow-x:auto}
svg{background:#fff;border:1px solid #ddd;margin:.5em 0}
.w{fill:#c44}.k{fill:#36c}.bar{fill:#8ab}.soft{stroke:#e90}.hard{stroke:#c00}
.axis{stroke:#999}.lbl{font-size:11px;fill:#555}
"""


def _limit_lines(limits: dict[str, Any], y_of: Any, top: float) -> list[str]:
    out = []
    for rule, css in (("max-lines-soft", "soft"), ("max-lines-hard", "hard")):
        if rule in limits and limits[rule]["max"] <= top:
            y = y_of(limits[rule]["max"])
            out.append(
                f'<line class="{css}" x1="{PAD}" x2="{W - 10}" y1="{y:.1f}" y2="{y:.1f}" '
                f'stroke-dasharray="6 4"/><text class="lbl" x="{W - 10}" y="{y - 3:.1f}" '
                f'text-anchor="end">{escape(rule)} {limits[rule]["max"]}</text>'
            )
    return out


def over_time(kind: str, rows: list[dict[str, Any]], limits: dict[str, Any]) -> str:
    """Lines as written (red) and as kept (blue) per write, oldest left."""
    top = max([r["wl"] for r in rows] + [limits.get("max-lines-hard", {}).get("max", 0), 1])
    t0, t1 = rows[0]["t"], rows[-1]["t"]
    span = (t1 - t0) or 1.0

    def x_of(t: float) -> float:
        return PAD + (W - PAD - 10) * ((t - t0) / span if t1 > t0 else 0.5)

    def y_of(v: float) -> float:
        return H - PAD + 10 - (H - PAD - 10) * v / top

    parts = [
        f'<svg width="{W}" height="{H}" '
        f'viewBox="0 0 {W} {H}" role="img" aria-label="{escape(kind)} lines per write over time">',
        f"<title>{escape(kind)}: lines per write over time</title>",
        f'<line class="axis" x1="{PAD}" x2="{PAD}" y1="10" y2="{H - PAD + 10}"/>',
        f'<line class="axis" x1="{PAD}" x2="{W - 10}" y1="{H - PAD + 10}" y2="{H - PAD + 10}"/>',
        f'<text class="lbl" x="4" y="16">{top}</text>',
        f'<text class="lbl" x="4" y="{H - PAD + 10}">0</text>',
        f'<text class="lbl" x="{PAD}" y="{H - 8}">{escape(when(t0))}</text>',
        f'<text class="lbl" x="{W - 10}" y="{H - 8}" text-anchor="end">{escape(when(t1))}</text>',
        *_limit_lines(limits, y_of, top),
    ]
    for r in rows:
        x = x_of(r["t"])
        parts.append(f'<circle class="w" cx="{x:.1f}" cy="{y_of(r["wl"]):.1f}" r="3"/>')
        parts.append(f'<circle class="k" cx="{x:.1f}" cy="{y_of(r["kl"]):.1f}" r="2"/>')
    parts.append("</svg>")
    return "".join(parts)


def distribution(kind: str, rows: list[dict[str, Any]], limits: dict[str, Any]) -> str:
    """How many writes had each size in lines (as written), with the limits as
    vertical lines."""
    sizes = [r["wl"] for r in rows]
    top = max([*sizes, limits.get("max-lines-hard", {}).get("max", 0), 1])
    counts: dict[int, int] = {}
    for size in sizes:
        counts[size] = counts.get(size, 0) + 1
    most = max(counts.values())
    width = (W - PAD - 10) / (top + 1)

    def x_of(v: float) -> float:
        return PAD + width * v

    parts = [
        f'<svg width="{W}" height="{H}" '
        f'viewBox="0 0 {W} {H}" role="img" aria-label="{escape(kind)} size distribution">',
        f"<title>{escape(kind)}: writes by lines as written, against the limits</title>",
        f'<line class="axis" x1="{PAD}" x2="{W - 10}" y1="{H - PAD + 10}" y2="{H - PAD + 10}"/>',
        f'<text class="lbl" x="{PAD}" y="{H - 8}">0 lines</text>',
        f'<text class="lbl" x="{W - 10}" y="{H - 8}" text-anchor="end">{top} lines</text>',
        f'<text class="lbl" x="4" y="16">{most}</text>',
    ]
    for size, n in sorted(counts.items()):
        h = (H - PAD - 10) * n / most
        parts.append(
            f'<rect class="bar" x="{x_of(size):.1f}" y="{H - PAD + 10 - h:.1f}" '
            f'width="{max(width - 1, 1):.1f}" height="{h:.1f}"><title>{size} lines: {n} '
            f"writes</title></rect>"
        )
    for rule, css in (("max-lines-soft", "soft"), ("max-lines-hard", "hard")):
        if rule in limits:
            x = x_of(limits[rule]["max"] + 1)
            parts.append(
                f'<line class="{css}" x1="{x:.1f}" x2="{x:.1f}" y1="10" y2="{H - PAD + 10}" '
                f'stroke-dasharray="6 4"/><text class="lbl" x="{x + 3:.1f}" y="22">'
                f"{escape(rule)} {limits[rule]['max']}</text>"
            )
    parts.append("</svg>")
    return "".join(parts)


def render(summary: dict[str, Any], records: list[dict[str, Any]], where: str) -> str:
    done = writes(records)
    body = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        "<title>asimov-hooks stats</title>",
        f"<style>{STYLE}</style></head><body>",
        "<h1>asimov-hooks stats</h1>",
    ]
    if not summary["records"]:
        body.append("<p>Nothing recorded yet.</p>")
    for kind, data in summary["kinds"].items():
        rows = [w for w in done if w["k"] == kind]
        body += [
            f"<h2>{escape(kind)}: {data['writes']} writes</h2>",
            "<p>Lines per write: as written (red) and as kept (blue), against the limits.</p>",
            over_time(kind, rows, data["limits"]),
            "<p>Writes by size in lines as written, against the limits.</p>",
            distribution(kind, rows, data["limits"]),
        ]
    text = render_text(summary, records, where)
    if text:
        body += ["<h2>Summary</h2>", f"<pre>{escape(text)}</pre>"]
    body.append("</body></html>")
    return "\n".join(body) + "\n"
