#!/usr/bin/env python3
"""A local stand-in for the ECB, for the measurement scripts: serves eurofxref-daily.xml,
eurofxref-hist-90d.xml and eurofxref-hist.xml in the ECB's layout, built from the real history
bundled with the server, for the days published so far. `POST /publish?through=YYYY-MM-DD`
moves the publication date. Each file has an `ETag`; a conditional GET of an unchanged file is
answered `304`. `GET /counts` gives how many answers were `200` and how many `304`. Loopback only.

Usage: Scripts/fake-ecb.py PORT THROUGH
"""
import http.server
import sys
import urllib.parse
import zipfile

ZIP = "Sources/RatesIngest/Resources/eurofxref-hist.zip"
csv = zipfile.ZipFile(ZIP).read("eurofxref-hist.csv").decode()
header, *rows = [line for line in csv.splitlines() if line]
codes = header.split(",")[1:]
ROWS = [row.split(",") for row in rows]  # newest first, as the ECB writes them
state = {"through": sys.argv[2], "200": 0, "304": 0}


def cube(fields):
    rates = "".join(f"\t\t\t<Cube currency='{c}' rate='{v}'/>\n" for c, v in zip(codes, fields[1:]) if c and v not in ("", "N/A"))
    return f"\t\t<Cube time='{fields[0]}'>\n{rates}\t\t</Cube>\n"


def document(selected):
    return ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gesmes:Envelope xmlns:gesmes=\"http://www.gesmes.org/xml/2002-08-01\" "
            "xmlns=\"http://www.ecb.int/vocabulary/2002-08-01/eurofxref\">\n\t<gesmes:subject>Reference rates</gesmes:subject>\n"
            "\t<gesmes:Sender>\n\t\t<gesmes:name>European Central Bank</gesmes:name>\n\t</gesmes:Sender>\n\t<Cube>\n"
            + "".join(cube(fields) for fields in selected) + "\t</Cube>\n</gesmes:Envelope>\n").encode()


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path == "/counts":
            body = f'{{"200": {state["200"]}, "304": {state["304"]}}}'.encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        published = [fields for fields in ROWS if fields[0] <= state["through"]]
        files = {"/eurofxref-daily.xml": published[:1], "/eurofxref-hist-90d.xml": published[:64], "/eurofxref-hist.xml": published}
        if self.path not in files:
            self.send_error(404)
            return
        etag = f'"{self.path[1:]}-{state["through"]}"'
        if self.headers.get("If-None-Match") == etag:
            state["304"] += 1
            self.send_response(304)
            self.send_header("ETag", etag)
            self.end_headers()
            return
        state["200"] += 1
        body = document(files[self.path])
        self.send_response(200)
        self.send_header("ETag", etag)
        self.send_header("Content-Type", "text/xml")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        query = urllib.parse.parse_qs(urllib.parse.urlparse(self.path).query)
        state["through"] = query["through"][0]
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
