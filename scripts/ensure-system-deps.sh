#!/bin/sh
# Installs the system programs the test suite drives, when they are missing:
# chromium (browser tests), serdi and rapper (independent RDF parsers), tesseract (reads the
# explorer's labels off a screenshot, as a person would).
set -e
missing=""
command -v chromium >/dev/null 2>&1 || missing="$missing chromium"
command -v serdi >/dev/null 2>&1 || missing="$missing serdi"
command -v rapper >/dev/null 2>&1 || missing="$missing raptor2-utils"
command -v tesseract >/dev/null 2>&1 || missing="$missing tesseract-ocr"
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != "0" ]; then
  SUDO="sudo"
else
  SUDO=""
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "missing:$missing; install them with your package manager (tests that need them will be skipped)" >&2
  exit 0
fi
echo "installing:$missing" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
