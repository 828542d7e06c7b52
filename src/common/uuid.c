/*-------------------------------------------------------------------------
 * uuid.c
 *	  Version 4 UUIDs from random.c's bytes (RFC 4122 §4.4), lower-case hex as
 *	  java.util.UUID.toString() prints them. Hand-written: eight lines, no
 *	  library needed.
 *-------------------------------------------------------------------------
 */
#include "common/uuid.h"

#include <stdint.h>

#include "common/random.h"

pm_code
pm_uuid_random(char out[PM_UUID_TEXT_LEN + 1], pm_error *err)
{
	static const char hex[] = "0123456789abcdef";
	uint8_t		b[16];
	int			o = 0;

	PM_TRY(pm_random_bytes(b, sizeof(b), err));
	b[6] = (uint8_t) ((b[6] & 0x0f) | 0x40);	/* version 4 */
	b[8] = (uint8_t) ((b[8] & 0x3f) | 0x80);	/* IETF variant */
	for (int i = 0; i < 16; i++)
	{
		if (i == 4 || i == 6 || i == 8 || i == 10)
			out[o++] = '-';
		out[o++] = hex[b[i] >> 4];
		out[o++] = hex[b[i] & 0x0f];
	}
	out[o] = '\0';
	return PM_OK;
}
