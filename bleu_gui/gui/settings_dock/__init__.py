"""The scoring settings dock: one group per metric family (settings_panel), the edits into the controller (settings_choice)
and COMET's set-up and cache rows."""
