"""The console over TLS, as Python's own HTTPS client sees it (standard library only): the
certificate checked against the test CA, the page fetched, a login posted. Prints JSON.

Usage: tls_client.py PORT CAFILE PASSWORD
"""
import http.client
import json
import ssl
import sys
import urllib.parse

port, cafile, password = int(sys.argv[1]), sys.argv[2], sys.argv[3]
context = ssl.create_default_context(cafile=cafile)
connection = http.client.HTTPSConnection("127.0.0.1", port, context=context, timeout=20)
connection.request("GET", "/")
page = connection.getresponse()
page_body = page.read().decode("utf-8", "replace")
connection.request(
    "POST",
    "/login",
    body=urllib.parse.urlencode({"password": password}),
    headers={"Content-Type": "application/x-www-form-urlencoded"},
)
login = connection.getresponse()
login.read()
print(
    json.dumps(
        {
            "tls": connection.sock.version(),
            "page_status": page.status,
            "page_has_login": "password" in page_body,
            "login_status": login.status,
            "cookie": login.getheader("Set-Cookie") or "",
        }
    )
)
