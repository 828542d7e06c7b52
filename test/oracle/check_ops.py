"""check_ops.py - the input files of the oracle checks' generated tables, written one way:
<name>.json (the table: columns, primary_keys, partition_keys, options) and its operations
as JSON lines (oracle.sh's write/pk_write input: {"op": "+I", "row": [...]}, {"op": "commit"}).
The check scripts' inline Python imports it (PYTHONPATH=$root/test/oracle):

    save = saver(wh)          save(name, table, ops[, more]): <name>.jsonl [+ <name>_more.jsonl]
    save = phase_saver(wh)    save(name, table, phases): <name>.<p>.jsonl for each phase p

and holds the operations more than one check writes (SEQ_COLUMNS / seq_field_ops).
"""

import json
import os


def write_jsonl(path, ops):
    """One JSON object a line."""
    with open(path, "w") as out:
        for op in ops:
            out.write(json.dumps(op) + "\n")


def _table(wh, name, table):
    with open(os.path.join(wh, name + ".json"), "w") as out:
        json.dump(table, out)


def saver(wh):
    """save(name, table, ops, more=None) into warehouse directory wh."""
    def save(name, table, ops, more=None):
        _table(wh, name, table)
        write_jsonl(os.path.join(wh, name + ".jsonl"), ops)
        if more is not None:
            write_jsonl(os.path.join(wh, name + "_more.jsonl"), more)
    return save


def phase_saver(wh):
    """save(name, table, phases) into wh: one <name>.<p>.jsonl a phase."""
    def save(name, table, phases):
        _table(wh, name, table)
        for p, ops in enumerate(phases):
            write_jsonl(os.path.join(wh, "%s.%d.jsonl" % (name, p)), ops)
    return save


def where_sets(path):
    """The output of `oracle.sh read --where '[[...], [...]]'`: rows (JSON text, normalized) by
    predicate (its JSON text), each result after its "# <predicate>" line."""
    out, cur = {}, None
    for line in open(path):
        if line.startswith("# "):
            cur = json.dumps(json.loads(line[2:]))
            out[cur] = []
        else:
            out[cur].append(json.dumps(json.loads(line)))
    return out


def where_matches(names, pred):
    """match(row) for one [field, op, literal] of oracle.sh's --where (op: = < <= > >= in,
    "is null"); a NULL matches only "is null"."""
    field, op, *lit = pred
    i = names.index(field)

    def match(row):
        v = row[i]
        if op == "is null":
            return v is None
        if v is None:
            return False
        x = lit[0]
        if op == "in":
            return v in x
        return {"=": v == x, "<": v < x, "<=": v <= x, ">": v > x, ">=": v >= x}[op]
    return match


# id INT NOT NULL (primary key), ts BIGINT (sequence.field), v STRING
SEQ_COLUMNS = [{"name": "id", "type": "INT NOT NULL"}, {"name": "ts", "type": "BIGINT"},
               {"name": "v", "type": "STRING"}]


def seq_field_ops(rnd, base, commits):
    """commits of 300 upserts of 80 keys with random ts: the largest ts wins."""
    ops = []
    for c in range(commits):
        for i in range(300):
            ts = rnd.randrange(50)
            ops.append({"op": "+I", "row": [i % 80, ts, "v%d-%d-%d" % (base + c, i, ts)]})
        ops.append({"op": "commit"})
    return ops
