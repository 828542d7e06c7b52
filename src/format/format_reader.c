/*-------------------------------------------------------------------------
 * format_reader.c
 *	  Dispatch to the Parquet, ORC and Avro readers; formats by file name;
 *	  row selections.
 *-------------------------------------------------------------------------
 */
#include "format/format_reader.h"

#include <string.h>
#include <strings.h>

#include "format/avro/avro_reader.h"
#include "format/orc/orc_reader.h"
#include "format/parquet/parquet_reader.h"

pm_code
pm_format_reader_open(pm_file_format format, const pm_env *env, pm_fileio *io,
					  const char *path, const pm_format_read_options *options,
					  pm_format_reader **out, pm_error *err)
{
	*out = NULL;
	switch (format)
	{
		case PM_FORMAT_PARQUET:
			return pm_parquet_reader_open(env, io, path, options, out, err);
		case PM_FORMAT_ORC:
			return pm_orc_reader_open(env, io, path, options, out, err);
		case PM_FORMAT_AVRO:
			return pm_avro_reader_open(env, io, path, options, out, err);
	}
	pm_error_set_path(err, path);
	return pm_fail(err, PM_ERR_INVALID, "unknown file format %d", (int) format);
}

bool
pm_row_selection_holds(const pm_row_selection *sel, int64_t start, int64_t end)
{
	int64_t		lo = 0,
				hi = sel->n;

	/* the first range ending after start */
	while (lo < hi)
	{
		int64_t		mid = lo + (hi - lo) / 2;

		if (sel->end[mid] <= start)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < sel->n && sel->start[lo] < end;
}

pm_code
pm_file_format_from_name(const char *name, pm_file_format *format, pm_error *err)
{
	if (strcasecmp(name, "parquet") == 0)
		*format = PM_FORMAT_PARQUET;
	else if (strcasecmp(name, "orc") == 0)
		*format = PM_FORMAT_ORC;
	else if (strcasecmp(name, "avro") == 0)
		*format = PM_FORMAT_AVRO;
	else
		return pm_fail(err, PM_ERR_UNSUPPORTED, "file format \"%s\" is not supported", name);
	return PM_OK;
}

pm_code
pm_file_format_from_path(const char *path, pm_file_format *format, pm_error *err)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	const char *dot = strrchr(base, '.');

	if (dot == NULL)
	{
		pm_error_set_path(err, path);
		return pm_fail(err, PM_ERR_UNSUPPORTED, "data file name has no format extension");
	}
	if (pm_file_format_from_name(dot + 1, format, err) != PM_OK)
	{
		pm_error_set_path(err, path);
		return err->code;
	}
	return PM_OK;
}

const char *
pm_file_format_name(pm_file_format format)
{
	switch (format)
	{
		case PM_FORMAT_PARQUET:
			return "parquet";
		case PM_FORMAT_ORC:
			return "orc";
		case PM_FORMAT_AVRO:
			return "avro";
	}
	return "unknown";
}
