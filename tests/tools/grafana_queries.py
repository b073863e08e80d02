#!/usr/bin/env python3
"""Evaluate every query of a Grafana dashboard against a Prometheus server.

usage: grafana_queries.py DASHBOARD.json http://HOST:PORT

Each panel target's expr (rows' nested panels included) is sent to the
server's instant query API, with the dashboard's variables given their
"All" value and Grafana's interval variables a fixed span; so are the
label_values() queries of the dashboard's variables, through the series
API. A query the server refuses, or that returns no sample, is a
failure: one line naming the panel, and exit status 1. Each query that
returns data is printed with its series count and one sample.
"""
import json
import re
import sys
import urllib.error
import urllib.parse
import urllib.request

# Grafana's built-in interval variables, given the spans a dashboard
# showing the last hour at 1 s scrapes would give them.
BUILTIN = {
    "__rate_interval": "1m",
    "__interval": "15s",
    "__range": "1h",
}


def get(base, path, params):
    url = base + path + "?" + urllib.parse.urlencode(params, doseq=True)
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return json.load(r)
    except urllib.error.HTTPError as e:
        # Prometheus answers a bad query with 400 and a JSON error.
        try:
            return json.load(e)
        except ValueError:
            return {"status": "error", "error": "HTTP %d" % e.code}
    except (urllib.error.URLError, OSError) as e:
        return {"status": "error", "error": str(e)}


def substitute(expr, variables):
    def one(m):
        name = m.group(1) or m.group(2)
        if name in BUILTIN:
            return BUILTIN[name]
        if name in variables:
            return variables[name]
        raise KeyError(name)
    return re.sub(r"\$\{(\w+)\}|\$(\w+)", one, expr)


def panels_of(items):
    for p in items:
        yield p
        yield from panels_of(p.get("panels", []))


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[2])
    dash = json.load(open(sys.argv[1]))
    base = sys.argv[2].rstrip("/")
    variables = {}
    varqueries = []
    for v in dash.get("templating", {}).get("list", []):
        if v.get("type") == "query":
            variables[v["name"]] = v.get("allValue") or ".*"
            q = v.get("query")
            varqueries.append((v["name"], q.get("query") if isinstance(q, dict) else q))
        elif v.get("type") == "datasource":
            variables[v["name"]] = v["name"]
    failed = []
    checked = 0
    for name, q in varqueries:
        m = re.fullmatch(r"\s*label_values\((.*),\s*(\w+)\s*\)\s*", q or "")
        if not m:
            failed.append("variable %s: not label_values(SELECTOR, LABEL): %r" % (name, q))
            continue
        try:
            sel = substitute(m.group(1), variables)
        except KeyError as e:
            failed.append("variable %s: unknown variable $%s" % (name, e.args[0]))
            continue
        d = get(base, "/api/v1/series", {"match[]": sel})
        vals = sorted({s.get(m.group(2)) for s in d.get("data", []) if m.group(2) in s})
        checked += 1
        if d.get("status") != "success":
            failed.append("variable %s: %s: %s" % (name, q, d.get("error")))
        elif not vals:
            failed.append("variable %s: %s: no value" % (name, q))
        else:
            print("variable %s: %s" % (name, " ".join(vals)))
    for p in panels_of(dash.get("panels", [])):
        for t in p.get("targets", []):
            if "expr" not in t:
                continue
            where = "panel %r target %s" % (p.get("title"), t.get("refId"))
            try:
                expr = substitute(t["expr"], variables)
            except KeyError as e:
                failed.append("%s: unknown variable $%s" % (where, e.args[0]))
                continue
            d = get(base, "/api/v1/query", {"query": expr})
            checked += 1
            if d.get("status") != "success":
                failed.append("%s: refused: %s (%s)" % (where, d.get("error"), expr))
                continue
            res = d["data"]["result"]
            if d["data"].get("resultType") != "vector" or not res:
                failed.append("%s: no data (%s)" % (where, expr))
                continue
            first = res[0]
            labels = ",".join("%s=%s" % kv for kv in sorted(first["metric"].items())
                              if kv[0] not in ("job",))
            print("%s: %d series, e.g. {%s} %s" % (where, len(res), labels, first["value"][1]))
    for f in failed:
        print("FAIL " + f)
    print("%d queries, %d without data or refused" % (checked, len(failed)))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
