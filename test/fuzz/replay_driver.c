/*-------------------------------------------------------------------------
 * replay_driver.c
 *	  Run a libFuzzer harness over every file of a corpus directory.
 *
 * Linked with one fuzz_<target>.c in the normal unit run (under ASan and
 * UBSan) so that every seed and every crasher ever found is replayed by
 * `make check-unit`, without clang's libFuzzer.
 *-------------------------------------------------------------------------
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

extern int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int
replay_file(const char *path)
{
	FILE	   *f = fopen(path, "rb");
	long		len;
	uint8_t    *buf;

	if (f == NULL)
		return -1;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc(len > 0 ? (size_t) len : 1);
	if (buf == NULL || (len > 0 && fread(buf, 1, (size_t) len, f) != (size_t) len))
	{
		fclose(f);
		free(buf);
		return -1;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, (size_t) len);
	free(buf);
	return 0;
}

int
main(int argc, char **argv)
{
	int			count = 0;

	for (int i = 1; i < argc; i++)
	{
		struct stat st;
		DIR		   *d;
		struct dirent *e;

		if (stat(argv[i], &st) != 0)
			continue;
		if (!S_ISDIR(st.st_mode))
		{
			if (replay_file(argv[i]) == 0)
				count++;
			continue;
		}
		d = opendir(argv[i]);
		while (d != NULL && (e = readdir(d)) != NULL)
		{
			char		path[4096];

			if (e->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", argv[i], e->d_name);
			if (replay_file(path) == 0)
				count++;
		}
		if (d != NULL)
			closedir(d);
	}
	printf("replayed %d inputs\n", count);
	if (count == 0)
	{
		/* a missing or empty seed directory must not pass as a clean replay */
		fprintf(stderr, "no input replayed: the seed directory is missing or empty\n");
		return 1;
	}
	return 0;
}
