"""What `install`, `uninstall` and `doctor` change: the settings merge (`settings_merge`) and the
files it touches (`files`)."""
