/*-------------------------------------------------------------------------
 * uring.c
 *	  Positional reads on a raw file descriptor: batched through io_uring
 *	  (liburing) where the kernel allows it, else plain pread.
 *
 * pm_fd_read_ranges submits every range (in groups of at most
 * RING_ENTRIES) to the process's ring and resubmits the rest of short reads
 * and interrupted ones. The ring is set up on first use and kept: setting
 * one up and tearing it down per call cost a few system calls and a
 * mapping per read (4-8% of a point lookup). It holds nothing between
 * calls (every read is reaped before a call returns, errors included: the
 * core never longjmps), so an ERROR in a Postgres backend leaves nothing
 * to clean up; a call that cannot reap (submit failing) drops the ring and
 * the next call sets up a new one. A forked child (the ring belongs to
 * the process that set it up, by pid) sets up its own.
 *
 * Process-wide state, written without locks (one backend, one thread; a
 * race on the flags at worst probes io_uring twice):
 *	 uring_enabled	 pm_uring_set_enabled (a GUC, tests)
 *	 uring_probe	 unknown / works / broken: io_uring_queue_init failing
 *					 (ENOSYS on old kernels, EPERM under seccomp or
 *					 io_uring_disabled) switches to pread for good.
 *	 ring, ring_pid	 the kept ring and the process it belongs to (0: none)
 *-------------------------------------------------------------------------
 */
#include "io/fileio.h"

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include <liburing.h>

#define RING_ENTRIES	64
/* one io_uring read is limited to unsigned int; stay well below */
#define MAX_OP_BYTES	((size_t) 1 << 30)

enum
{
	PROBE_UNKNOWN = 0,
	PROBE_WORKS,
	PROBE_BROKEN
};

static volatile bool uring_enabled = true;
static volatile int uring_probe = PROBE_UNKNOWN;
static struct io_uring ring;
static pid_t ring_pid;

/* The process's ring, set up on first use; NULL when it cannot be. */
static struct io_uring *
process_ring(void)
{
	pid_t		me = getpid();

	if (ring_pid == me)
		return &ring;
	/* none yet, or the parent's (a fork): the parent's stays the parent's */
	if (io_uring_queue_init(RING_ENTRIES, &ring, 0) < 0)
	{
		ring_pid = 0;
		return NULL;
	}
	ring_pid = me;
	return &ring;
}

static void
drop_ring(void)
{
	if (ring_pid == getpid())
		io_uring_queue_exit(&ring);
	ring_pid = 0;
}

void
pm_uring_set_enabled(bool enabled)
{
	uring_enabled = enabled;
}

bool
pm_uring_available(void)
{
	if (!uring_enabled)
		return false;
	if (uring_probe == PROBE_UNKNOWN)
	{
		struct io_uring ring;

		if (io_uring_queue_init(2, &ring, 0) == 0)
		{
			io_uring_queue_exit(&ring);
			uring_probe = PROBE_WORKS;
		}
		else
			uring_probe = PROBE_BROKEN;
	}
	return uring_probe == PROBE_WORKS;
}

pm_code
pm_fd_pread(int fd, void *buf, size_t len, uint64_t off, pm_error *err)
{
	uint8_t    *p = buf;
	size_t		done = 0;

	if (off > (uint64_t) INT64_MAX || len > (uint64_t) INT64_MAX - off)
		return pm_fail(err, PM_ERR_CORRUPT, "read of %zu bytes at offset %llu is out of range",
					   len, (unsigned long long) off);
	while (done < len)
	{
		size_t		want = len - done;
		ssize_t		n;

		if (want > MAX_OP_BYTES)
			want = MAX_OP_BYTES;
		n = pread(fd, p + done, want, (off_t) (off + done));
		if (n < 0)
		{
			if (errno == EINTR)
				continue;
			return pm_fail_errno(err, errno, "could not read %zu bytes at offset %llu",
								 len, (unsigned long long) off);
		}
		if (n == 0)
			return pm_fail(err, PM_ERR_CORRUPT,
						   "truncated: wanted %zu bytes at offset %llu, file ends after %llu",
						   len, (unsigned long long) off,
						   (unsigned long long) (off + done));
		done += (size_t) n;
	}
	return PM_OK;
}

static pm_code
read_ranges_pread(int fd, pm_read_range *ranges, int nranges, pm_error *err)
{
	for (int i = 0; i < nranges; i++)
		if (ranges[i].length > 0)
			PM_TRY(pm_fd_pread(fd, ranges[i].buf, ranges[i].length, ranges[i].offset, err));
	return PM_OK;
}

/* queue the next piece of range group[i] (bytes done[i] already read) */
static void
queue_read(struct io_uring *ring, int fd, pm_read_range *r, size_t done, int slot)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
	size_t		want = r->length - done;

	/* the ring has RING_ENTRIES slots and at most that many reads in flight */
	if (want > MAX_OP_BYTES)
		want = MAX_OP_BYTES;
	io_uring_prep_read(sqe, fd, (uint8_t *) r->buf + done, (unsigned) want, r->offset + done);
	io_uring_sqe_set_data64(sqe, (uint64_t) slot);
}

/*
 * Read one group of at most RING_ENTRIES ranges through the ring.
 */
static pm_code
read_group(struct io_uring *ring, int fd, pm_read_range *group, int n, bool *unreaped,
		   pm_error *err)
{
	size_t		done[RING_ENTRIES];
	int			inflight = 0;
	pm_code		rc = PM_OK;

	for (int i = 0; i < n; i++)
	{
		done[i] = 0;
		if (group[i].length == 0)
			continue;
		queue_read(ring, fd, &group[i], 0, i);
		inflight++;
	}
	while (inflight > 0)
	{
		struct io_uring_cqe *cqe;
		int			ret;
		int			slot;
		int			res;

		ret = io_uring_submit_and_wait(ring, 1);
		if (ret < 0 && ret != -EINTR && ret != -EAGAIN && ret != -EBUSY)
		{
			rc = pm_fail_errno(err, -ret, "io_uring submit failed");
			*unreaped = true;
			break;
		}
		ret = io_uring_peek_cqe(ring, &cqe);
		if (ret == -EAGAIN)
			continue;
		if (ret < 0)
		{
			rc = pm_fail_errno(err, -ret, "io_uring wait failed");
			*unreaped = true;
			break;
		}
		slot = (int) io_uring_cqe_get_data64(cqe);
		res = cqe->res;
		io_uring_cqe_seen(ring, cqe);
		inflight--;
		if (slot < 0 || slot >= n)
			continue;			/* cannot happen: we set the data */
		if (res == -EINTR || res == -EAGAIN)
		{
			queue_read(ring, fd, &group[slot], done[slot], slot);
			inflight++;
			continue;
		}
		if (res < 0)
		{
			if (rc == PM_OK)
				rc = pm_fail_errno(err, -res, "could not read %zu bytes at offset %llu",
								   group[slot].length,
								   (unsigned long long) group[slot].offset);
			continue;			/* reap the rest before the ring goes away */
		}
		if (res == 0)
		{
			if (rc == PM_OK)
				rc = pm_fail(err, PM_ERR_CORRUPT,
							 "truncated: wanted %zu bytes at offset %llu, file ends after %llu",
							 group[slot].length, (unsigned long long) group[slot].offset,
							 (unsigned long long) (group[slot].offset + done[slot]));
			continue;
		}
		done[slot] += (size_t) res;
		if (done[slot] < group[slot].length && rc == PM_OK)
		{
			/* short read: ask for the rest */
			queue_read(ring, fd, &group[slot], done[slot], slot);
			inflight++;
		}
	}
	return rc;
}

pm_code
pm_fd_read_ranges(int fd, pm_read_range *ranges, int nranges, pm_error *err)
{
	struct io_uring *r;
	bool		unreaped = false;
	pm_code		rc = PM_OK;

	if (nranges <= 0)
		return PM_OK;
	for (int i = 0; i < nranges; i++)
	{
		if (ranges[i].offset > (uint64_t) INT64_MAX ||
			ranges[i].length > (uint64_t) INT64_MAX - ranges[i].offset)
			return pm_fail(err, PM_ERR_CORRUPT,
						   "read of %zu bytes at offset %llu is out of range",
						   ranges[i].length, (unsigned long long) ranges[i].offset);
	}
	/* a single range gains nothing from a ring */
	if (nranges == 1 || !pm_uring_available())
		return read_ranges_pread(fd, ranges, nranges, err);

	if ((r = process_ring()) == NULL)
	{
		/* e.g. locked memory limits: this call uses pread */
		return read_ranges_pread(fd, ranges, nranges, err);
	}
	for (int start = 0; start < nranges && rc == PM_OK; start += RING_ENTRIES)
	{
		int			n = nranges - start;

		if (n > RING_ENTRIES)
			n = RING_ENTRIES;
		rc = read_group(r, fd, ranges + start, n, &unreaped, err);
	}
	if (unreaped)
		drop_ring();			/* reads may still land: never reuse it */
	return rc;
}
