#!/usr/bin/env python3
"""Process-time auto tags (tag.automatic-creation = process-time) made by our commits and
by Java's on one table, checked against a model of Java's TagAutoCreation and read back
by Java.

Per seed, one scenario (seed % len(SCENARIOS)): a period (hourly, two-hours, daily, a
duration), a formatter, sink.process-time-zone (UTC, a half-hour zone, a DST zone, a GMT
offset id), tag.creation-delay, tag.automatic-completion and tag.num-retained-max:

  1. the table is made through SQL without tag.automatic-creation; Java commits four
     snapshots, whose commit times (timeMillis) are then set to random times of the past
     days (the only way to give snapshots chosen times);
  2. Java sets tag.automatic-creation = process-time (a schema change, no snapshot);
  3. an INSERT through the extension commits snapshot 5: its commit tags snapshots 1-5 as
     Java's TagAutoCreation would (the tags, the snapshots they name, the expiry);
  4. Java commits snapshot 6 (Java's own run continues from our last tag), then the
     extension snapshot 7, then paimon_compact snapshot 8.

After each step the tags Java lists (name -> snapshot) equal the model's, computed from
the snapshots' own times (so the wall clock cannot make it flaky), and at the end Java
reads every tag's rows: the rows committed up to its snapshot.

The last line is "N passed, N failed" (per seed); missing input is a loud skip, a failure
in CI (input_required.py). ORACLE_PAIMON_VERSION=1.4.2 for the other oracle release.

Usage: run_auto_tags.py [--seeds "0 1 2 3 4"] [--keep]
"""
import datetime
import json
import os
import random
import re
import sys
import zoneinfo

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "oracle"))
import difftest  # noqa: E402
from sql_session import end_case, java_ops, scratch_table, psql as run_psql  # noqa: E402
from run_pk_dml import seeds_main  # noqa: E402

DB = "autotags"
difftest.DB = DB
MIN = 60000
HOUR = 60 * MIN
DAY = 24 * HOUR

# (options, period ms, name layout, zone for the model)
SCENARIOS = [
    ({"tag.creation-period": "hourly", "sink.process-time-zone": "UTC",
      "tag.num-retained-max": "2"}, HOUR, "%Y-%m-%d %H", "UTC"),
    ({"tag.creation-period": "hourly", "tag.period-formatter": "without_dashes",
      "sink.process-time-zone": "Asia/Kolkata", "tag.creation-delay": "10 min",
      "tag.automatic-completion": "true"}, HOUR, "%Y%m%d %H", "Asia/Kolkata"),
    ({"tag.creation-period": "two-hours", "tag.period-formatter": "without_dashes_and_spaces",
      "sink.process-time-zone": "GMT-3", "tag.num-retained-max": "3"},
     2 * HOUR, "%Y-%m-%d %H", "Etc/GMT+3"),
    ({"tag.creation-period": "daily", "sink.process-time-zone": "America/New_York",
      "tag.creation-delay": "2 h"}, DAY, "%Y-%m-%d", "America/New_York"),
    ({"tag.creation-period-duration": "90 min", "sink.process-time-zone": "Europe/Berlin",
      "tag.num-retained-max": "4", "tag.automatic-completion": "true"},
     90 * MIN, "%Y%m%d%H%M", "Europe/Berlin"),
]


def psql(sql):
    return run_psql(sql).stdout


def duration_ms(text):
    n, unit = text.split()
    return int(n) * {"min": MIN, "h": HOUR}[unit]


def local_ms(utc_ms, zone):
    """Instant.ofEpochMilli(ms).atZone(zone).toLocalDateTime() as ms of a zoneless clock."""
    d = datetime.datetime.fromtimestamp(utc_ms / 1000, zoneinfo.ZoneInfo(zone))
    return utc_ms + int(d.utcoffset().total_seconds() * 1000)


def tag_name(local, layout):
    """TagPeriodHandler.timeToTag of a zoneless time."""
    return (datetime.datetime(1970, 1, 1) + datetime.timedelta(milliseconds=local)).strftime(layout)


def model_tags(snaps, options, period, layout, zone):
    """TagAutoCreation over snapshots [(id, timeMillis)] from the first: {name: id}."""
    delay = duration_ms(options.get("tag.creation-delay", "0 min"))
    completion = options.get("tag.automatic-completion") == "true"
    keep = int(options["tag.num-retained-max"]) if "tag.num-retained-max" in options else None
    tags = {}
    nxt = None
    for sid, t in snaps:
        local = local_ms(t, zone)
        if nxt is not None and local - delay < nxt + period:
            continue
        this = (local // period) * period - period  # normalizeToPreviousTag
        if completion and nxt is not None:
            this = nxt
        name = tag_name(this, layout)
        tags.setdefault(name, sid)  # createTag(..., ignoreIfExists = true)
        nxt = this + period
        if keep is not None and len(tags) > keep:
            for old in sorted(tags, key=lambda n: tags[n])[:len(tags) - keep]:
                del tags[old]
    return tags


def set_time(wh, name, sid, millis):
    path = os.path.join(wh, DB + ".db", name, "snapshot", "snapshot-%d" % sid)
    with open(path) as f:
        text = f.read()
    text, n = re.subn(r'("timeMillis"\s*:\s*)\d+', r"\g<1>%d" % millis, text)
    assert n == 1, path
    os.remove(path)
    with open(path, "w") as f:
        f.write(text)


def run_seed(seed, args, tmproot):
    rnd = random.Random(seed)
    options, period, layout, zone = SCENARIOS[seed % len(SCENARIOS)]
    name = "t%d" % seed
    srv = "autotags_%d" % seed
    ft = "public.autotags_%d" % seed
    wh = os.path.join(tmproot, "wh%d" % seed)
    os.makedirs(wh)
    os.chmod(wh, 0o777)
    scratch_table(srv, wh, DB, name, "id INT, v STRING", ft, options)
    rows = {}  # snapshot id -> ids committed up to it
    ids = []
    msgs = []

    def commit_java(sid):
        new = [len(ids) + i for i in range(rnd.randint(1, 3))]
        java_ops(tmproot, wh, DB, name, [{"op": "+I", "row": [i, "j%d" % i]} for i in new]
                   + [{"op": "commit"}])
        ids.extend(new)
        rows[sid] = sorted(ids)

    def commit_sql(sid):
        new = [len(ids) + i for i in range(rnd.randint(1, 3))]
        psql("INSERT INTO %s VALUES %s;" % (ft, ", ".join("(%d, 's%d')" % (i, i) for i in new)))
        ids.extend(new)
        rows[sid] = sorted(ids)

    def check(step, active=True):
        listing = difftest.java_snapshots(wh, name)
        snaps = [(s["id"], s["time_millis"]) for s in listing["snapshots"]]
        want = model_tags(snaps, options, period, layout, zone) if active else {}
        if listing["tags"] != want:
            msgs.append("after %s: Java lists the tags %s, the model %s (snapshot times %s)" % (
                step, listing["tags"], want, snaps))
        return listing["tags"]

    # 1. four Java snapshots at chosen times of the past days
    now = int(datetime.datetime.now(datetime.timezone.utc).timestamp() * 1000)
    t = now - rnd.randint(3, 6) * period - rnd.randint(0, period)
    for sid in range(1, 5):
        commit_java(sid)
        set_time(wh, name, sid, t)
        t += rnd.choice([rnd.randint(1, period // 3), rnd.randint(period // 2, 2 * period)])
    check("Java's four commits without tag.automatic-creation", active=False)
    # 2. process-time from now on (Java's schema change)
    java_ops(tmproot, wh, DB, name, [{"op": "alter", "changes": [
        {"set": "tag.automatic-creation", "value": "process-time"}]}])
    # 3. our commit tags 1-5, 4. Java's commit, ours, paimon_compact
    commit_sql(5)
    check("our INSERT (snapshot 5)")
    commit_java(6)
    check("Java's commit (snapshot 6)")
    commit_sql(7)
    check("our INSERT (snapshot 7)")
    psql("SELECT snapshot_id FROM paimon_compact('%s');" % ft)
    rows[8] = rows[7]
    tags = check("paimon_compact (snapshot 8)")
    for tag, sid in sorted(tags.items()):
        out = difftest.run([difftest.ORACLE, "read", wh, DB, name, "--tag", tag])
        got = sorted(json.loads(line)[0] for line in out.splitlines() if line.strip())
        if got != rows[sid]:
            msgs.append("Java reads tag %s (snapshot %d) as ids %s, committed %s" % (
                tag, sid, got, rows[sid]))
    passed = not msgs
    print("%s seed %d: %s, %d tags at the end (%s)" % (
        "ok  " if passed else "FAIL", seed, json.dumps(options), len(tags), ", ".join(sorted(tags))))
    return end_case(passed, msgs, srv, wh, args.keep,
                    "python3 test/compat/run_auto_tags.py --seeds %d --keep" % seed)


def main():
    return seeds_main(__doc__, "process-time auto tags through SQL and Java", run_seed,
                      " ".join(str(i) for i in range(len(SCENARIOS))), 0, "paimon_auto_tags_")


if __name__ == "__main__":
    sys.exit(main())
