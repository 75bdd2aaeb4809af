"""The colours of the product, as hex strings: the window, the SVG charts and the HTML report all use these."""

MATCHED = "#b7e4c7"
CLIPPED = "#ffd8a8"
CLIPPED_LINE = "#e8590c"
UNMATCHED = "#ffc9c9"
SELECTED = "#a5d8ff"
SENTENCE = "#339af0"
CORPUS = "#adb5bd"
AXIS = "#495057"
MARKER = "#e8590c"  # interval lines, the selected point
DELTA = "#74c0fc"
SYSTEMS = ["#868e96", "#339af0", "#f76707", "#37b24d", "#ae3ec9", "#f03e3e", "#1098ad", "#f59f00"]
