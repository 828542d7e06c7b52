/*-------------------------------------------------------------------------
 * rewrite_metadata.c
 *	  Java-read check of the metadata writers: take the latest snapshot N of
 *	  a table Java wrote and commit snapshot N+1 holding the same files, with
 *	  every Avro data file copied by our Avro writer (unless the snapshot has
 *	  an index manifest: its deletion vectors name the data files), every
 *	  manifest and both
 *	  manifest lists written by table/manifest_write.c and the snapshot JSON
 *	  by pm_snapshot_to_json. check.sh then has Java read N and N+1 and
 *	  compares the rows.
 *
 * Usage: rewrite_metadata <table dir>     (prints the new snapshot id)
 * Tables whose manifest.format is not avro are refused (Java reads
 * manifests in the table's format).
 *-------------------------------------------------------------------------
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "common/uuid.h"
#include "format/avro/avro_reader.h"
#include "format/avro/avro_writer.h"
#include "io/fileio.h"
#include "table/manifest_entry.h"
#include "table/manifest_list.h"
#include "table/manifest_write.h"
#include "table/schema.h"
#include "table/snapshot.h"

#define MAX_FILES 4096

static pm_arena *A;
static pm_fileio *io;
static const char *table;
static const char *old_names[MAX_FILES];
static const char *new_names[MAX_FILES];
static int64_t new_sizes[MAX_FILES];
static int ncopied;
static bool copy_data;			/* false when deletion vectors name the data files */

static void
check(pm_code rc, const pm_error *err, const char *what)
{
	if (rc == PM_OK)
		return;
	fprintf(stderr, "rewrite_metadata: %s: %s%s%s\n", what, err->message,
			err->path[0] ? " at " : "", err->path);
	exit(1);
}

/* The data file's path: its bucket directory holds it; found by find(1). */
static char *
data_path(const char *name)
{
	char		cmd[4096];
	char		path[4096] = "";
	FILE	   *p;

	snprintf(cmd, sizeof(cmd), "find '%s' -name '%s' -not -path '*/manifest/*' | head -1", table, name);
	p = popen(cmd, "r");
	if (p == NULL || fgets(path, sizeof(path), p) == NULL)
	{
		fprintf(stderr, "rewrite_metadata: data file %s not found\n", name);
		exit(1);
	}
	pclose(p);
	path[strcspn(path, "\n")] = '\0';
	return pm_arena_strdup(A, path);
}

/* Copy an Avro data file with our writer (once per file); point the entry at the copy. */
static void
copy_avro_data(pm_manifest_entry *e)
{
	pm_error	err;
	const pm_type *type;
	pm_format_write_options wo = {0};
	pm_format_read_options ro = {0};
	pm_format_writer *w;
	pm_format_reader *r;
	pm_format_write_result res;
	char		uuid[PM_UUID_TEXT_LEN + 1];
	char	   *path,
			   *name;

	if (!copy_data || strstr(e->file.file_name, ".avro") == NULL)
		return;
	for (int i = 0; i < ncopied; i++)
		if (strcmp(old_names[i], e->file.file_name) == 0)
		{
			e->file.file_name = new_names[i];
			e->file.file_size = new_sizes[i];
			return;
		}
	if (ncopied == MAX_FILES)
		exit(2);
	path = data_path(e->file.file_name);
	check(pm_avro_file_type(pm_env_default(), io, path, A, &type, &err), &err, path);
	check(pm_uuid_random(uuid, &err), &err, "uuid");
	name = pm_arena_sprintf(A, "data-%s-0.avro", uuid);
	wo.schema = type;
	wo.compression = "zstd";
	wo.zstd_level = 1;
	check(pm_avro_writer_open(pm_env_default(), io,
							  pm_arena_sprintf(A, "%.*s/%s", (int) (strrchr(path, '/') - path), path, name),
							  &wo, &w, &err), &err, "open the copy");
	ro.schema = type;
	check(pm_avro_reader_open(pm_env_default(), io, path, &ro, &r, &err), &err, path);
	for (;;)
	{
		pm_batch   *b;

		check(pm_format_reader_next(r, &b, &err), &err, path);
		if (b == NULL)
			break;
		check(pm_format_writer_write(w, b, &err), &err, "write the copy");
	}
	pm_format_reader_close(r);
	check(pm_format_writer_finish(w, A, &res, &err), &err, "finish the copy");
	old_names[ncopied] = e->file.file_name;
	new_names[ncopied] = name;
	new_sizes[ncopied++] = res.file_size;
	e->file.file_name = name;
	e->file.file_size = res.file_size;
}

static void
rewrite_list(const char *name, const pm_type *partition_type, int64_t schema_id,
			 const char **out, int64_t *size)
{
	pm_manifest_write_options o = {PM_FORMAT_AVRO, NULL};
	pm_manifest_file_meta *metas,
			   *ours;
	int			n;
	pm_error	err;

	check(pm_manifest_list_read(pm_env_default(), io, pm_arena_sprintf(A, "%s/manifest/%s", table, name),
								A, &metas, &n, &err), &err, name);
	ours = pm_arena_zalloc(A, sizeof(*ours) * (size_t) (n + 1));
	for (int m = 0; m < n; m++)
	{
		pm_manifest_entry *e = NULL;
		int			ne = 0,
					cap = 0;

		check(pm_manifest_entries_read(pm_env_default(), io,
									   pm_arena_sprintf(A, "%s/manifest/%s", table, metas[m].file_name),
									   A, &e, &ne, &cap, &err), &err, metas[m].file_name);
		for (int i = 0; i < ne; i++)
			copy_avro_data(&e[i]);
		check(pm_manifest_file_write(pm_env_default(), io, table, &o, partition_type, schema_id,
									 e, ne, A, &ours[m], &err), &err, "write a manifest");
	}
	check(pm_manifest_list_write(pm_env_default(), io, table, &o, ours, n, A, out, size, &err),
		  &err, "write a manifest list");
}

int
main(int argc, char **argv)
{
	pm_error	err;
	int64_t		id;
	pm_snapshot *s,
				n;
	pm_schema  *schema;
	pm_field   *f;
	const pm_type *ptype;
	const char *mf;
	char	   *json;
	size_t		len;

	if (argc != 2)
	{
		fprintf(stderr, "usage: rewrite_metadata <table dir>\n");
		return 2;
	}
	table = argv[1];
	A = pm_arena_create(pm_env_default());
	io = pm_local_fileio_create(pm_env_default());
	check(pm_snapshot_latest_id(io, table, A, &id, &err), &err, "latest snapshot");
	check(pm_snapshot_load(io, table, id, A, &s, &err), &err, "snapshot");
	check(pm_schema_load_latest(io, table, A, &schema, &err), &err, "schema");
	mf = pm_schema_option(schema, "manifest.format");
	if (mf != NULL && strcmp(mf, "avro") != 0)
	{
		fprintf(stderr, "rewrite_metadata: manifest.format is %s, not avro\n", mf);
		return 3;
	}
	f = pm_arena_zalloc(A, sizeof(pm_field) * (size_t) (schema->npartition_keys + 1));
	for (int i = 0; i < schema->npartition_keys; i++)
		f[i] = schema->row_type->fields[pm_type_field_index(schema->row_type, schema->partition_keys[i])];
	ptype = pm_type_new_row(A, f, schema->npartition_keys, false);

	/* the index manifest's deletion vectors name data files: keep those names */
	copy_data = s->index_manifest == NULL;
	n = *s;
	n.id = id + 1;
	rewrite_list(s->base_manifest_list, ptype, schema->id, &n.base_manifest_list, &n.base_manifest_list_size);
	rewrite_list(s->delta_manifest_list, ptype, schema->id, &n.delta_manifest_list, &n.delta_manifest_list_size);
	check(pm_snapshot_to_json(&n, A, &json, &len, &err), &err, "snapshot JSON");
	check(io->write_new(io, pm_arena_sprintf(A, "%s/snapshot/snapshot-%lld", table, (long long) n.id),
						json, len, &err), &err, "write the snapshot");
	printf("%lld\n", (long long) n.id);
	pm_local_fileio_destroy(io);
	pm_arena_destroy(A);
	return 0;
}
