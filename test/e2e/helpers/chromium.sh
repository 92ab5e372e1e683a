#!/bin/sh
# The system Chromium as the end-to-end tests start it (Playwright's executablePath, the example's
# CHROMIUM_PATH). Headless, it runs as the whole browser and preloads its address bar's popups
# (chrome://omnibox-popup.top-chrome, and its AI-mode page) in a renderer of their own for every window: busier
# than the page under test (eight contexts of one page took 29-32 s of Chromium's CPU with them, 10-11 without).
# Chromium reads only the last --disable-features it is given, so every one Playwright passes is folded into
# one list with these two, last.
features=WebUIOmniboxPopup,WebUIOmniboxAimPopup
for arg do
  shift
  case $arg in
    --disable-features=*) features="${arg#--disable-features=},$features" ;;
    *) set -- "$@" "$arg" ;;
  esac
done
exec /usr/bin/chromium "$@" "--disable-features=$features"
