"""The colours of the product, as hex strings: the window, the SVG charts and the HTML report all use these."""

MATCHED = "#b7e4c7"
CLIPPED = "#ffd8a8"
CLIPPED_LINE = "#e8590c"
UNMATCHED = "#ffc9c9"
SELECTED = "#a5d8ff"
SENTENCE = "#339af0"
CORPUS = "#adb5bd"
CORPUS_POINT = "#868e96"
AXIS = "#495057"
BACKGROUND = "#ffffff"
MARKER = "#e8590c"  # interval lines, the selected point
DELTA = "#74c0fc"
SYSTEMS = ["#868e96", "#339af0", "#f76707", "#37b24d", "#ae3ec9", "#f03e3e", "#1098ad", "#f59f00"]
# "All orders": darker green for longer matched n-grams.
ORDER_GREENS = ["#d3f9d8", "#b2f2bb", "#8ce99a", "#69db7c", "#51cf66", "#40c057", "#37b24d", "#2f9e44", "#2b8a3e"]
ONLY_HERE = "#1864ab"     # a word only this system matched (Compare panes)
REF_ONLY_A = "#d0bfff"    # reference word only A matched (only B uses SELECTED)
# The window's text styles.
ACCENT = "#1c7ed6"
BADGE = "#ffe066"          # a setting that is not the default
ADVICE = "#fff3bf"         # the background of an advice bar
TEXT = "#343a40"
INK = "#212529"
TITLE = "#495057"
MUTED = "#868e96"
# Report page chrome.
RULE = "#dee2e6"
NOTE = "#6c757d"
HEADER_BG = "#f1f3f5"
FRAME = "#e9ecef"
STAR = "#2b8a3e"
