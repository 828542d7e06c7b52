/*-------------------------------------------------------------------------
 * test_table_metadata.c
 *	  Types, schemas, snapshots (hint files), path maps and the catalog:
 *	  the metadata layer below scan planning.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/fileio.h"
#include "io/memory_fileio.h"
#include "row/data_type.h"
#include "table/catalog.h"
#include "table/partition_path.h"
#include "table/path_map.h"
#include "table/stats_filter.h"
#include "table/schema.h"
#include "table/snapshot.h"
#include "table/split.h"
#include "table/table.h"

static const pm_type *
parse_ok(pm_arena *a, const char *text)
{
	const pm_type *t = NULL;
	pm_error	err;

	pm_error_clear(&err);
	if (pm_data_type_parse(text, a, &t, &err) != PM_OK)
		fail_msg("\"%s\": %s", text, err.message);
	return t;
}

static void
test_type_strings(void **state)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	const pm_type *t;
	pm_error	err;

	(void) state;
	t = parse_ok(a, "INT NOT NULL");
	assert_int_equal(t->id, PM_TYPE_INT);
	assert_false(t->nullable);
	t = parse_ok(a, "integer");
	assert_int_equal(t->id, PM_TYPE_INT);
	assert_true(t->nullable);
	t = parse_ok(a, "DECIMAL(23, 5)");
	assert_int_equal(t->id, PM_TYPE_DECIMAL);
	assert_int_equal(t->precision, 23);
	assert_int_equal(t->scale, 5);
	t = parse_ok(a, "DECIMAL");
	assert_int_equal(t->precision, 10);
	assert_int_equal(t->scale, 0);
	t = parse_ok(a, "TIMESTAMP(3) WITH LOCAL TIME ZONE NOT NULL");
	assert_int_equal(t->id, PM_TYPE_TIMESTAMP_LTZ);
	assert_int_equal(t->precision, 3);
	assert_false(t->nullable);
	t = parse_ok(a, "TIMESTAMP");
	assert_int_equal(t->id, PM_TYPE_TIMESTAMP);
	assert_int_equal(t->precision, 6);
	t = parse_ok(a, "TIMESTAMP_LTZ(9)");
	assert_int_equal(t->id, PM_TYPE_TIMESTAMP_LTZ);
	assert_int_equal(t->precision, 9);
	t = parse_ok(a, "TIME");
	assert_int_equal(t->id, PM_TYPE_TIME);
	assert_int_equal(t->precision, 0);
	t = parse_ok(a, "STRING");
	assert_int_equal(t->id, PM_TYPE_VARCHAR);
	assert_int_equal(t->length, PM_MAX_VARCHAR_LENGTH);
	t = parse_ok(a, "VARCHAR");
	assert_int_equal(t->length, 1);
	t = parse_ok(a, "BYTES");
	assert_int_equal(t->id, PM_TYPE_VARBINARY);
	t = parse_ok(a, "BINARY(6)");
	assert_int_equal(t->id, PM_TYPE_BINARY);
	assert_int_equal(t->length, 6);
	t = parse_ok(a, "DOUBLE PRECISION");
	assert_int_equal(t->id, PM_TYPE_DOUBLE);
	t = parse_ok(a, "MAP<STRING, ARRAY<DOUBLE>>");
	assert_int_equal(t->id, PM_TYPE_MAP);
	assert_int_equal(t->value->id, PM_TYPE_ARRAY);
	assert_int_equal(t->value->element->id, PM_TYPE_DOUBLE);
	t = parse_ok(a, "ROW<f0 INT, f1 STRING NOT NULL>");
	assert_int_equal(t->nfields, 2);
	assert_string_equal(t->fields[1].name, "f1");
	assert_false(t->fields[1].type->nullable);
	assert_string_equal(pm_data_type_to_string(parse_ok(a, "decimal(5,2) not null"), a),
						"DECIMAL(5, 2) NOT NULL");
	assert_string_equal(pm_data_type_to_string(parse_ok(a, "MAP<BIGINT, ROW<f0 INT, f1 STRING>>"), a),
						"MAP<BIGINT, ROW<f0 INT, f1 STRING>>");

	assert_int_equal(pm_data_type_parse("GEOMETRY", a, &t, &err), PM_ERR_UNSUPPORTED);
	assert_int_equal(pm_data_type_parse("VECTOR<FLOAT, 3>", a, &t, &err), PM_ERR_UNSUPPORTED);
	assert_int_equal(pm_data_type_parse("DECIMAL(50, 2)", a, &t, &err), PM_ERR_CORRUPT);
	assert_int_equal(pm_data_type_parse("INT garbage", a, &t, &err), PM_ERR_CORRUPT);
	assert_int_equal(pm_data_type_parse("ARRAY<INT", a, &t, &err), PM_ERR_CORRUPT);
	assert_int_equal(pm_data_type_parse("", a, &t, &err), PM_ERR_CORRUPT);
	pm_arena_destroy(a);
}

static void
test_schema_json(void **state)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	pm_schema  *s;
	pm_error	err;
	const char *v3 =
		"{\"version\":3,\"id\":1,\"fields\":["
		"{\"id\":0,\"name\":\"k\",\"type\":\"INT NOT NULL\"},"
		"{\"id\":1,\"name\":\"col1\",\"type\":{\"type\":\"ROW\",\"fields\":["
		"{\"id\":5,\"name\":\"f0\",\"type\":\"STRING\"},"
		"{\"id\":7,\"name\":\"f2\",\"type\":{\"type\":\"ARRAY NOT NULL\",\"element\":\"INT\"}}]}},"
		"{\"id\":8,\"name\":\"m\",\"type\":{\"type\":\"MAP\",\"key\":\"INT\",\"value\":\"INT\"},\"description\":\"d\"}],"
		"\"highestFieldId\":8,\"partitionKeys\":[],\"primaryKeys\":[\"k\"],"
		"\"options\":{\"bucket\":\"2\"},\"comment\":\"c\",\"timeMillis\":1755758621910}";
	const char *v1 = "{\"id\":0,\"fields\":[{\"id\":0,\"name\":\"a\",\"type\":\"INT\"}],"
		"\"partitionKeys\":[],\"primaryKeys\":[]}";

	(void) state;
	assert_int_equal(pm_schema_parse(v3, strlen(v3), a, &s, &err), PM_OK);
	assert_int_equal(s->id, 1);
	assert_int_equal(s->version, 3);
	assert_int_equal(s->row_type->nfields, 3);
	assert_int_equal(s->row_type->fields[1].type->id, PM_TYPE_ROW);
	assert_int_equal(s->row_type->fields[1].type->fields[1].id, 7);
	assert_false(s->row_type->fields[1].type->fields[1].type->nullable);
	assert_int_equal(s->row_type->fields[2].type->id, PM_TYPE_MAP);
	assert_string_equal(s->row_type->fields[2].description, "d");
	assert_int_equal(s->highest_field_id, 8);
	assert_int_equal(s->nprimary_keys, 1);
	assert_string_equal(pm_schema_option(s, "bucket"), "2");
	assert_null(pm_schema_option(s, "file.format"));
	assert_string_equal(s->comment, "c");
	assert_int_equal(s->time_millis, 1755758621910LL);

	/* version 1 defaults: bucket=1, file.format=orc */
	assert_int_equal(pm_schema_parse(v1, strlen(v1), a, &s, &err), PM_OK);
	assert_int_equal(s->version, 1);
	assert_string_equal(pm_schema_option(s, "bucket"), "1");
	assert_string_equal(pm_schema_option(s, "file.format"), "orc");
	assert_int_equal(s->highest_field_id, 0);

	assert_int_equal(pm_schema_parse("{", 1, a, &s, &err), PM_ERR_CORRUPT);
	assert_int_equal(pm_schema_parse("{\"id\":0}", 8, a, &s, &err), PM_ERR_CORRUPT);
	{
		const char *bad = "{\"id\":0,\"fields\":[{\"id\":0,\"name\":\"a\",\"type\":\"INT\"}],"
			"\"partitionKeys\":[\"zz\"],\"primaryKeys\":[]}";

		assert_int_equal(pm_schema_parse(bad, strlen(bad), a, &s, &err), PM_ERR_CORRUPT);
	}
	pm_arena_destroy(a);
}

/* every schema file in the corpus parses, with field ids <= highestFieldId */
static void
test_corpus_schemas(void **state)
{
	char		root[4096];
	const char *formats[] = {"parquet", "orc", "avro", "mixed"};
	pm_fileio  *io;
	int			parsed = 0;

	(void) state;
	unit_require_corpus();
	io = pm_local_fileio_create(pm_env_default());
	for (size_t f = 0; f < 4; f++)
	{
		DIR		   *dbs;
		struct dirent *db;

		snprintf(root, sizeof(root), "%s", unit_corpus_path("tables"));
		strcat(root, "/");
		strcat(root, formats[f]);
		dbs = opendir(root);
		if (dbs == NULL)
			continue;
		while ((db = readdir(dbs)) != NULL)
		{
			char		dbname[512];
			size_t		len = strlen(db->d_name);
			pm_arena   *a;
			char	  **names;
			int			n;
			pm_error	err;

			if (len < 4 || strcmp(db->d_name + len - 3, ".db") != 0)
				continue;
			snprintf(dbname, sizeof(dbname), "%.*s", (int) (len - 3), db->d_name);
			a = pm_arena_create(pm_env_default());
			assert_int_equal(pm_catalog_list_tables(io, root, dbname, a, &names, &n, &err), PM_OK);
			for (int i = 0; i < n; i++)
			{
				char	   *path = pm_catalog_table_path(a, root, dbname, names[i]);
				pm_schema  *s;
				pm_code		rc = pm_schema_load_latest(io, path, a, &s, &err);

				if (rc == PM_ERR_UNSUPPORTED)
					continue;
				if (rc != PM_OK)
					fail_msg("%s: %s", path, err.message);
				for (int k = 0; k < s->row_type->nfields; k++)
					assert_true(s->row_type->fields[k].id <= s->highest_field_id);
				parsed++;
			}
			pm_arena_destroy(a);
		}
		closedir(dbs);
	}
	assert_true(parsed >= 40);
	pm_local_fileio_destroy(io);
}

static void
add(pm_fileio *io, const char *path, const char *text)
{
	pm_error	err;

	assert_int_equal(pm_memory_fileio_add(io, path, text, strlen(text), &err), PM_OK);
}

static const char *
snap_json(pm_arena *a, int id)
{
	return pm_arena_sprintf(a, "{\"version\":3,\"id\":%d,\"schemaId\":0,"
							"\"baseManifestList\":\"manifest-list-a-%d\","
							"\"deltaManifestList\":\"manifest-list-b-%d\","
							"\"commitUser\":\"u\",\"commitIdentifier\":9223372036854775807,"
							"\"commitKind\":\"APPEND\",\"timeMillis\":1,"
							"\"totalRecordCount\":%d,\"deltaRecordCount\":1}", id, id, id, id * 10);
}

static void
test_snapshot_hints(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *a = pm_arena_create(pm_env_default());
	pm_error	err;
	int64_t		id;
	pm_snapshot *s;

	(void) state;
	/* no snapshot directory at all */
	assert_int_equal(pm_snapshot_latest_id(io, "/t", a, &id, &err), PM_OK);
	assert_int_equal(id, 0);
	for (int i = 2; i <= 4; i++)
		add(io, pm_arena_sprintf(a, "/t/snapshot/snapshot-%d", i), snap_json(a, i));
	add(io, "/t/snapshot/snapshot-3abc.tmp", "junk");
	add(io, "/t/snapshot/.snapshot-5.uuid.tmp", "junk");
	/* no hints: listing */
	assert_int_equal(pm_snapshot_latest_id(io, "/t", a, &id, &err), PM_OK);
	assert_int_equal(id, 4);
	assert_int_equal(pm_snapshot_earliest_id(io, "/t", a, &id, &err), PM_OK);
	assert_int_equal(id, 2);
	/* stale LATEST (snapshot-4 exists after 3): listing wins */
	add(io, "/t/snapshot/LATEST", "3");
	assert_int_equal(pm_snapshot_latest_id(io, "/t", a, &id, &err), PM_OK);
	assert_int_equal(id, 4);
	/* garbage and empty hints */
	add(io, "/t/snapshot/LATEST", "");
	assert_int_equal(pm_snapshot_latest_id(io, "/t", a, &id, &err), PM_OK);
	assert_int_equal(id, 4);
	add(io, "/t/snapshot/LATEST", "4x");
	assert_int_equal(pm_snapshot_latest_id(io, "/t", a, &id, &err), PM_OK);
	assert_int_equal(id, 4);
	add(io, "/t/snapshot/LATEST", "4");
	assert_int_equal(pm_snapshot_latest_id(io, "/t", a, &id, &err), PM_OK);
	assert_int_equal(id, 4);
	/* EARLIEST pointing at an expired snapshot */
	add(io, "/t/snapshot/EARLIEST", "1");
	assert_int_equal(pm_snapshot_earliest_id(io, "/t", a, &id, &err), PM_OK);
	assert_int_equal(id, 2);
	add(io, "/t/snapshot/EARLIEST", "3");
	assert_int_equal(pm_snapshot_earliest_id(io, "/t", a, &id, &err), PM_OK);
	assert_int_equal(id, 3);

	assert_int_equal(pm_snapshot_load(io, "/t", 3, a, &s, &err), PM_OK);
	assert_int_equal(s->id, 3);
	assert_string_equal(s->base_manifest_list, "manifest-list-a-3");
	assert_int_equal(s->commit_identifier, INT64_MAX);
	assert_int_equal(s->total_record_count, 30);
	assert_null(s->index_manifest);
	assert_int_equal(pm_snapshot_load(io, "/t", 7, a, &s, &err), PM_ERR_NOT_FOUND);
	/* id mismatch and hostile manifest names */
	add(io, "/t/snapshot/snapshot-9", snap_json(a, 8));
	assert_int_equal(pm_snapshot_load(io, "/t", 9, a, &s, &err), PM_ERR_CORRUPT);
	{
		const char *evil = "{\"id\":1,\"schemaId\":0,\"baseManifestList\":\"../../etc/passwd\","
			"\"deltaManifestList\":\"x\"}";

		assert_int_equal(pm_snapshot_parse(evil, strlen(evil), a, &s, &err), PM_ERR_CORRUPT);
	}
	pm_arena_destroy(a);
	pm_memory_fileio_destroy(io);
}

static void
test_table_open_states(void **state)
{
	pm_fileio  *io = pm_memory_fileio_create(pm_env_default());
	pm_arena   *a = pm_arena_create(pm_env_default());
	const char *schema = "{\"version\":3,\"id\":0,\"fields\":[{\"id\":0,\"name\":\"a\",\"type\":\"INT\"}],"
		"\"partitionKeys\":[],\"primaryKeys\":[],\"options\":{\"row-tracking.enabled\":\"true\"}}";
	pm_table   *t;
	pm_scan    *scan;
	pm_error	err;

	(void) state;
	assert_int_equal(pm_table_open(pm_env_default(), io, "/w/db.db/t", NULL, &t, &err),
					 PM_ERR_NOT_FOUND);
	add(io, "/w/db.db/t/schema/schema-0", schema);
	/* a table without snapshot opens; planning refuses the option */
	assert_int_equal(pm_table_open(pm_env_default(), io, "/w/db.db/t/", NULL, &t, &err), PM_OK);
	assert_int_equal(pm_table_snapshot_id(t), 0);
	assert_int_equal(pm_table_total_record_count(t), 0);
	assert_int_equal(pm_table_scan_plan(t, NULL, &scan, &err), PM_ERR_UNSUPPORTED);
	assert_non_null(strstr(err.message, "row-tracking.enabled"));
	pm_table_close(t);
	{
		char	  **names;
		int			n;

		add(io, "/w/db.db/notatable/x", "1");
		assert_int_equal(pm_catalog_list_tables(io, "/w/", "db", a, &names, &n, &err), PM_OK);
		assert_int_equal(n, 1);
		assert_string_equal(names[0], "t");
		assert_int_equal(pm_catalog_list_tables(io, "/w", "nodb", a, &names, &n, &err),
						 PM_ERR_NOT_FOUND);
		assert_string_equal(pm_catalog_table_path(a, "/w//", "db", "t"), "/w/db.db/t");
	}
	pm_arena_destroy(a);
	pm_memory_fileio_destroy(io);
}

static void
test_path_map(void **state)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	pm_path_map *m;
	pm_error	err;
	char	   *out;

	(void) state;
	assert_int_equal(pm_path_map_parse("FILE:/tmp/external=/data/ext,file:/tmp/external/deep=/deep/", a, &m, &err), PM_OK);
	assert_int_equal(pm_path_map_resolve(m, "FILE:/tmp/external/f1=10/bucket-0/x.parquet", a, &out, &err), PM_OK);
	assert_string_equal(out, "/data/ext/f1=10/bucket-0/x.parquet");
	assert_int_equal(pm_path_map_resolve(m, "file:/tmp/external/deep/x", a, &out, &err), PM_OK);
	assert_string_equal(out, "/deep/x");
	assert_int_equal(pm_path_map_resolve(m, "file:///tmp/externalx/y", a, &out, &err), PM_OK);
	assert_string_equal(out, "/tmp/externalx/y");
	assert_int_equal(pm_path_map_resolve(m, "/plain/path", a, &out, &err), PM_OK);
	assert_string_equal(out, "/plain/path");
	assert_int_equal(pm_path_map_resolve(m, "s3://bucket/x", a, &out, &err), PM_ERR_UNSUPPORTED);
	assert_int_equal(pm_path_map_parse("nothing", a, &m, &err), PM_ERR_INVALID);
	assert_int_equal(pm_path_map_parse(NULL, a, &m, &err), PM_OK);
	assert_int_equal(pm_path_map_resolve(m, "FILE:/x", a, &out, &err), PM_OK);
	assert_string_equal(out, "/x");
	pm_arena_destroy(a);
}

static void
test_time_travel(void **state)
{
	pm_fileio  *io;
	char	   *dir;
	pm_table   *t;
	pm_error	err;
	pm_table_open_options o;
	static const struct
	{
		int64_t		ts;
		int64_t		id;
	}			cases[] = {
		{1728468640251LL, 1}, {1728468940016LL, 1}, {1728468940017LL, 2},
		{1728468992148LL, 3}, {INT64_MAX, 3}
	};

	(void) state;
	unit_require_corpus();
	io = pm_local_fileio_create(pm_env_default());
	dir = strdup(unit_corpus_path("tables/orc/multi_partition_append_table.db/multi_partition_append_table"));
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		memset(&o, 0, sizeof(o));
		o.timestamp_millis = cases[i].ts;
		assert_int_equal(pm_table_open(pm_env_default(), io, dir, &o, &t, &err), PM_OK);
		assert_int_equal(pm_table_snapshot_id(t), cases[i].id);
		pm_table_close(t);
	}
	memset(&o, 0, sizeof(o));
	o.timestamp_millis = 1728468640250LL;
	assert_int_equal(pm_table_open(pm_env_default(), io, dir, &o, &t, &err), PM_ERR_NOT_FOUND);
	o.snapshot_id = 1;
	assert_int_equal(pm_table_open(pm_env_default(), io, dir, &o, &t, &err), PM_ERR_INVALID);
	memset(&o, 0, sizeof(o));
	o.tag = "nope";
	assert_int_equal(pm_table_open(pm_env_default(), io, dir, &o, &t, &err), PM_ERR_NOT_FOUND);
	o.tag = "../x";
	assert_int_equal(pm_table_open(pm_env_default(), io, dir, &o, &t, &err), PM_ERR_INVALID);
	pm_local_fileio_destroy(io);
	free(dir);

	/* a tag: its snapshot (even if expired) with its schema */
	{
		pm_arena   *a = pm_arena_create(pm_env_default());
		const char *s0 = "{\"id\":0,\"fields\":[{\"id\":0,\"name\":\"a\",\"type\":\"INT\"}],"
			"\"partitionKeys\":[],\"primaryKeys\":[]}";
		const char *s1 = "{\"id\":1,\"fields\":[{\"id\":0,\"name\":\"a\",\"type\":\"BIGINT\"}],"
			"\"partitionKeys\":[],\"primaryKeys\":[]}";

		io = pm_memory_fileio_create(pm_env_default());
		add(io, "/t/schema/schema-0", s0);
		add(io, "/t/schema/schema-1", s1);
		add(io, "/t/snapshot/snapshot-5", snap_json(a, 5));
		add(io, "/t/tag/tag-v1", snap_json(a, 2));
		memset(&o, 0, sizeof(o));
		o.tag = "v1";
		assert_int_equal(pm_table_open(pm_env_default(), io, "/t", &o, &t, &err), PM_OK);
		assert_int_equal(pm_table_snapshot_id(t), 2);
		assert_int_equal(pm_table_schema(t)->id, 0);
		assert_int_equal(pm_table_total_record_count(t), 20);
		pm_table_close(t);
		/* latest: the latest schema */
		assert_int_equal(pm_table_open(pm_env_default(), io, "/t", NULL, &t, &err), PM_OK);
		assert_int_equal(pm_table_snapshot_id(t), 5);
		assert_int_equal(pm_table_schema(t)->id, 1);
		pm_table_close(t);
		pm_memory_fileio_destroy(io);
		pm_arena_destroy(a);
	}
}

static void
test_partition_path(void **state)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	pm_schema  *legacy,
			   *modern;
	pm_error	err;
	pm_field	f[4];
	const pm_type *pt;
	pm_value	v[4];
	char	   *out;
	const char *sl = "{\"id\":0,\"fields\":[],\"partitionKeys\":[],\"primaryKeys\":[]}";
	const char *sm = "{\"id\":0,\"fields\":[],\"partitionKeys\":[],\"primaryKeys\":[],"
		"\"options\":{\"partition.legacy-name\":\"false\"}}";

	(void) state;
	assert_int_equal(pm_schema_parse(sl, strlen(sl), a, &legacy, &err), PM_OK);
	assert_int_equal(pm_schema_parse(sm, strlen(sm), a, &modern, &err), PM_OK);
	memset(f, 0, sizeof(f));
	memset(v, 0, sizeof(v));
	f[0].name = "dt";
	f[0].type = parse_ok(a, "DATE");
	f[1].name = "s:x";
	f[1].type = parse_ok(a, "STRING");
	f[2].name = "ts";
	f[2].type = parse_ok(a, "TIMESTAMP(3)");
	f[3].name = "d";
	f[3].type = parse_ok(a, "DECIMAL(5, 2)");
	pt = pm_type_new_row(a, f, 4, false);
	v[0].u.i64 = 18628;			/* 2021-01-01 */
	v[1].u.bytes.ptr = (const uint8_t *) "a/b:c%";
	v[1].u.bytes.len = 6;
	v[2].u.i64 = 1609502400000000LL;	/* 2021-01-01 12:00 */
	v[3].u.i128 = 1230;
	assert_int_equal(pm_partition_path(legacy, pt, "__DEFAULT_PARTITION__", v, a, &out, &err), PM_OK);
	assert_string_equal(out, "dt=18628/s%3Ax=a%2Fb%3Ac%25/ts=2021-01-01T12%3A00/d=12.30/");
	assert_int_equal(pm_partition_path(modern, pt, "__DEFAULT_PARTITION__", v, a, &out, &err), PM_OK);
	assert_string_equal(out, "dt=2021-01-01/s%3Ax=a%2Fb%3Ac%25/ts=2021-01-01 12%3A00%3A00.000/d=12.30/");
	v[0].is_null = true;
	v[1].u.bytes.ptr = (const uint8_t *) " ";
	v[1].u.bytes.len = 1;
	v[2].u.i64 = 1609502401500000LL;	/* 12:00:01.5 */
	assert_int_equal(pm_partition_path(legacy, pt, "NULLP", v, a, &out, &err), PM_OK);
	assert_string_equal(out, "dt=NULLP/s%3Ax=NULLP/ts=2021-01-01T12%3A00%3A01.500/d=12.30/");
	pm_arena_destroy(a);
}

static pm_predicate
leaf(pm_pred_op op, int field, pm_value *lits, int n)
{
	pm_predicate p;

	memset(&p, 0, sizeof(p));
	p.op = op;
	p.field = field;
	p.literals = lits;
	p.nliterals = n;
	return p;
}

static void
test_stats_filter_rules(void **state)
{
	pm_arena   *a = pm_arena_create(pm_env_default());
	const pm_type *row = parse_ok(a, "ROW<i INT, d DOUBLE, s STRING>");
	pm_field_range r[3];
	pm_value	v[3];
	pm_predicate p,
				q,
				both;
	pm_predicate *kids[2];

	(void) state;
	memset(r, 0, sizeof(r));
	memset(v, 0, sizeof(v));
	/* i in [10, 20], 2 nulls of 5 rows */
	r[0].known = true;
	r[0].has_min_max = true;
	r[0].min.u.i64 = 10;
	r[0].max.u.i64 = 20;
	r[0].null_count = 2;
	r[0].row_count = 5;
	v[0].u.i64 = 5;
	v[1].u.i64 = 10;
	v[2].u.i64 = 21;
	p = leaf(PM_PRED_EQ, 0, &v[0], 1);
	assert_false(pm_stats_filter_may_match(&p, row, r, 3));
	p = leaf(PM_PRED_EQ, 0, &v[1], 1);
	assert_true(pm_stats_filter_may_match(&p, row, r, 3));
	p = leaf(PM_PRED_LT, 0, &v[1], 1);
	assert_false(pm_stats_filter_may_match(&p, row, r, 3));
	p = leaf(PM_PRED_LE, 0, &v[1], 1);
	assert_true(pm_stats_filter_may_match(&p, row, r, 3));
	p = leaf(PM_PRED_GE, 0, &v[2], 1);
	assert_false(pm_stats_filter_may_match(&p, row, r, 3));
	p = leaf(PM_PRED_IN, 0, v, 3);
	assert_true(pm_stats_filter_may_match(&p, row, r, 3));
	p = leaf(PM_PRED_IN, 0, &v[2], 1);
	assert_false(pm_stats_filter_may_match(&p, row, r, 3));
	p = leaf(PM_PRED_IS_NULL, 0, NULL, 0);
	assert_true(pm_stats_filter_may_match(&p, row, r, 3));
	r[0].null_count = 0;
	assert_false(pm_stats_filter_may_match(&p, row, r, 3));
	/* NE prunes only a constant column */
	p = leaf(PM_PRED_NE, 0, &v[1], 1);
	assert_true(pm_stats_filter_may_match(&p, row, r, 3));
	r[0].max.u.i64 = 10;
	assert_false(pm_stats_filter_may_match(&p, row, r, 3));
	/* a NULL literal never matches a comparison */
	v[0].is_null = true;
	p = leaf(PM_PRED_EQ, 0, &v[0], 1);
	assert_false(pm_stats_filter_may_match(&p, row, r, 3));
	v[0].is_null = false;

	/* d: NaN bounds are unknown; all-null column */
	r[1].known = true;
	r[1].has_min_max = true;
	r[1].min.u.f64 = NAN;
	r[1].max.u.f64 = 1.0;
	r[1].null_count = -1;
	r[1].row_count = 5;
	{
		pm_value	big = {0};

		big.u.f64 = 100.0;
		p = leaf(PM_PRED_GT, 1, &big, 1);
		assert_true(pm_stats_filter_may_match(&p, row, r, 3));
		r[1].min.u.f64 = 0.5;
		/* a NaN left out of max is above 100 (test_stats_filter.c) */
		assert_true(pm_stats_filter_may_match(&p, row, r, 3));
		r[1].has_min_max = false;
		r[1].null_count = 5;
		assert_false(pm_stats_filter_may_match(&p, row, r, 3));
		p = leaf(PM_PRED_IS_NOT_NULL, 1, NULL, 0);
		assert_false(pm_stats_filter_may_match(&p, row, r, 3));
	}

	/* s unknown: keeps; AND prunes if one side does, OR only if both do */
	{
		pm_value	str = {0};

		str.u.bytes.ptr = (const uint8_t *) "x";
		str.u.bytes.len = 1;
		q = leaf(PM_PRED_EQ, 2, &str, 1);
		assert_true(pm_stats_filter_may_match(&q, row, r, 3));
		p = leaf(PM_PRED_EQ, 0, &v[2], 1);	/* i = 21: prunes */
		kids[0] = &p;
		kids[1] = &q;
		memset(&both, 0, sizeof(both));
		both.op = PM_PRED_AND;
		both.nchildren = 2;
		both.children = kids;
		assert_false(pm_stats_filter_may_match(&both, row, r, 3));
		both.op = PM_PRED_OR;
		assert_true(pm_stats_filter_may_match(&both, row, r, 3));
	}
	/* field out of range: keep */
	p = leaf(PM_PRED_EQ, 7, &v[2], 1);
	assert_true(pm_stats_filter_may_match(&p, row, r, 3));
	assert_true(pm_stats_filter_may_match(NULL, row, r, 3));
	pm_arena_destroy(a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_type_strings),
		cmocka_unit_test(test_schema_json),
		cmocka_unit_test(test_corpus_schemas),
		cmocka_unit_test(test_snapshot_hints),
		cmocka_unit_test(test_table_open_states),
		cmocka_unit_test(test_path_map),
		cmocka_unit_test(test_time_travel),
		cmocka_unit_test(test_partition_path),
		cmocka_unit_test(test_stats_filter_rules),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
