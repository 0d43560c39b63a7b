"""QR codes for table links: encoded once with ReportLab's encoder, drawn straight onto a PDF page or as SVG.

ReportLab's QR widget encodes twice (for its size, then to draw) and builds a shape object for every run of dark
modules; drawing the runs directly is many times faster, which matters for 250 score sheets.
"""

from __future__ import annotations

import itertools

from reportlab.graphics.barcode import qrencoder

QUIET = 4  # modules of white border all round, as the QR specification asks


def qr_modules(text: str) -> list[list[bool]]:
    """The code's modules, row by row from the top, True for dark (error correction level M)."""
    code = qrencoder.QRCode(None, qrencoder.QRErrorCorrectLevel.M)
    code.addData(text)
    code.make()
    return [[bool(module) for module in row] for row in code.modules]


def _runs(modules: list[list[bool]]):
    """(row, first column, length) of every run of dark modules."""
    for r, row in enumerate(modules):
        column = 0
        for dark, run in itertools.groupby(row):
            length = len(list(run))
            if dark:
                yield r, column, length
            column += length


def draw_qr(canvas, text: str, x: float, y: float, size: float) -> None:
    """Draw the code for `text` as a `size` square (quiet border included) with its lower left corner at x, y."""
    modules = qr_modules(text)
    box = size / (len(modules) + 2 * QUIET)
    canvas.saveState()
    canvas.setFillColorRGB(0, 0, 0)
    for r, c, length in _runs(modules):
        canvas.rect(x + (c + QUIET) * box, y + size - (r + QUIET + 1) * box, length * box, box, stroke=0, fill=1)
    canvas.restoreState()


def qr_svg(text: str, size: float = 160) -> str:
    """The code as an SVG element, for pages."""
    modules = qr_modules(text)
    side = len(modules) + 2 * QUIET
    path = "".join(f"M{c + QUIET} {r + QUIET}h{length}v1h-{length}z" for r, c, length in _runs(modules))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size:g}" height="{size:g}" viewBox="0 0 {side} {side}" '
        f'shape-rendering="crispEdges"><rect width="{side}" height="{side}" fill="#fff"/>'
        f'<path d="{path}" fill="#000"/></svg>'
    )
