"""Our own date formats where Django's read ambiguously (settings.FORMAT_MODULE_PATH)."""
