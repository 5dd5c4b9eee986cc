#!/usr/bin/env python3
"""Writes DIR/behind.csv: the bundled ECB history without its newest day, for a server to import
before a stand-in (Scripts/fake-ecb.py) publishes that day. Prints the two newest days: the one
the file ends with and the one held back.

Usage: Scripts/history-behind.py DIR
"""
import sys
import zipfile

csv = zipfile.ZipFile("Sources/RatesIngest/Resources/eurofxref-hist.zip").read("eurofxref-hist.csv").decode()
header, *rows = [line for line in csv.splitlines() if line]  # newest first, as the ECB writes them
open(f"{sys.argv[1]}/behind.csv", "w").write("\n".join([header] + rows[1:]) + "\n")
print(rows[1].split(",")[0], rows[0].split(",")[0])
