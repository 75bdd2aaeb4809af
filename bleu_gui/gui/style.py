"""The window's style sheet, from the product palette."""

from __future__ import annotations

from ..core import palette

STYLE = f"""
QLabel#corpusScore {{ font-size: 26px; font-weight: 600; color: {palette.ACCENT}; }}
QLabel#verbose {{ font-family: monospace; color: {palette.TEXT}; }}
QLabel#signature {{ font-family: monospace; color: {palette.MUTED}; }}
QLabel#paneTitle {{ font-weight: 600; color: {palette.TITLE}; margin-top: 4px; }}
QLabel#hint {{ color: {palette.MUTED}; }}
"""
