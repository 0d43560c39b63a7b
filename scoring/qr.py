"""QR codes for table links, drawn with ReportLab (already used for the sheets), as SVG for pages."""

from __future__ import annotations

from reportlab.graphics import renderSVG
from reportlab.graphics.barcode.qr import QrCodeWidget
from reportlab.graphics.shapes import Drawing


def qr_drawing(text: str, size: float) -> Drawing:
    widget = QrCodeWidget(text, barLevel="M")
    left, bottom, right, top = widget.getBounds()
    drawing = Drawing(size, size, transform=[size / (right - left), 0, 0, size / (top - bottom), 0, 0])
    drawing.add(widget)
    return drawing


def qr_svg(text: str, size: float = 160) -> str:
    svg = renderSVG.drawToString(qr_drawing(text, size))
    return svg[svg.index("<svg") :]  # drop the XML prologue so it can sit inside a page
