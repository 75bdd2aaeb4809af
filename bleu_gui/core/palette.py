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
# Twenty system colours, told apart by everyone: any two differ by ΔE ≥ 9.9 (CIE76) in normal vision and under
# simulated protanopia, deuteranopia and tritanopia (tests/test_palette.py). The first seven are Okabe & Ito's.
SYSTEMS = ["#0072b2", "#e69f00", "#009e73", "#cc79a7", "#d55e00", "#56b4e9", "#000000", "#ddcc77", "#332288",
           "#882255", "#9edae5", "#8c564b", "#d62728", "#bbbbbb", "#c49c94", "#004488", "#aa3377", "#ee6677",
           "#ee8866", "#999933"]
CLUSTER_BANDS = ["#ffffff", "#eef3f8"]  # alternate significance clusters in the systems table
# The pair matrix: cells by p-value, from clearly significant to clearly not.
P_SIGNIFICANT = "#2b8a3e"
P_WEAK = "#b2f2bb"
P_NONE = "#f1f3f5"
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
# Inline tags (XLIFF/TMX) drawn as chips, and a tag-count mismatch.
TAG_BG = "#e4ddf4"
TAG_INK = "#4b3c78"
FLAG_BG = "#fde2c8"
FLAG_INK = "#7a3b00"
# "All orders" bars under each token, one per order, and the thin line between adjacent tokens.
BAR_MATCHED = "#2f9e44"
BAR_CLIPPED = "#f08c00"
BAR_UNMATCHED = "#e03131"
BAR_NONE = "#dee2e6"       # no n-gram of that order covers the token
TOKEN_EDGE = "#868e96"
EDITED = "#fff3bf"         # a sentence whose candidate was edited (what-if)
FLIP = "#ffe3e3"           # tokenizer table: a setting under which the winner between A and B changes
RANK_CHANGED = "#fff3bf"   # tokenizer table: the ranking of systems differs from the current setting's
# Human error annotations (MQM): a marked span by its severity, and the underline drawn beside another metric's marks.
MQM_CRITICAL = "#c92a2a"
MQM_MAJOR = "#ff8787"
MQM_MINOR = "#ffe066"
MQM_NEUTRAL = "#dee2e6"
# A reviewer's own marks, underlined (a wave) over the match colours: inks dark enough to show on any of them.
MARK_CRITICAL = "#5f3dc4"
MARK_MAJOR = "#c92a2a"
MARK_MINOR = "#e67700"

# Span agreement drawn on a segment: characters both the detector and the humans marked, the humans only (missed),
# the detector only (a false alarm).
SPAN_HIT = MATCHED
SPAN_MISS = CLIPPED
SPAN_FALSE_ALARM = UNMATCHED

# Erasure (which words move a neural score): leaving the word out raises the score (the model holds it against the
# text) or lowers it (the word earns its score); each at full strength for the segment's largest move.
ERASURE_RAISES = (224, 49, 49)
ERASURE_LOWERS = (28, 126, 214)
