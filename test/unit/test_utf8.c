/*-------------------------------------------------------------------------
 * test_utf8.c
 *	  common/utf8.h: character lengths as Java's BinaryString counts them
 *	  (malformed lead bytes count as one byte), prefixes of n characters
 *	  (cut characters, short strings), and encode/decode round trips at
 *	  every length boundary.
 *-------------------------------------------------------------------------
 */
#include "unit.h"

#include <string.h>

#include "common/utf8.h"

static void
test_char_bytes(void **state)
{
	(void) state;
	assert_int_equal(pm_utf8_char_bytes('a'), 1);
	assert_int_equal(pm_utf8_char_bytes(0x7F), 1);
	/* continuation bytes and overlong C0/C1 leads: one byte (Java) */
	assert_int_equal(pm_utf8_char_bytes(0x80), 1);
	assert_int_equal(pm_utf8_char_bytes(0xBF), 1);
	assert_int_equal(pm_utf8_char_bytes(0xC0), 1);
	assert_int_equal(pm_utf8_char_bytes(0xC1), 1);
	assert_int_equal(pm_utf8_char_bytes(0xC2), 2);
	assert_int_equal(pm_utf8_char_bytes(0xDF), 2);
	assert_int_equal(pm_utf8_char_bytes(0xE0), 3);
	assert_int_equal(pm_utf8_char_bytes(0xEF), 3);
	assert_int_equal(pm_utf8_char_bytes(0xF0), 4);
	assert_int_equal(pm_utf8_char_bytes(0xF7), 4);
	/* F8..FF: not allowed first, one byte */
	assert_int_equal(pm_utf8_char_bytes(0xF8), 1);
	assert_int_equal(pm_utf8_char_bytes(0xFF), 1);
}

static void
test_prefix(void **state)
{
	/* "aé€😀": 1 + 2 + 3 + 4 bytes */
	static const uint8_t s[] = {'a', 0xC3, 0xA9, 0xE2, 0x82, 0xAC, 0xF0, 0x9F, 0x98, 0x80};
	static const size_t want[] = {0, 1, 3, 6, 10};
	int64_t		c;

	(void) state;
	for (int n = 0; n <= 4; n++)
	{
		assert_int_equal(pm_utf8_prefix(s, sizeof(s), n, &c), want[n]);
		assert_int_equal(c, n);
	}
	/* more characters than the string has */
	assert_int_equal(pm_utf8_prefix(s, sizeof(s), 9, &c), sizeof(s));
	assert_int_equal(c, 4);
	/* a character cut by the end counts, up to the end */
	assert_int_equal(pm_utf8_prefix(s, 8, 4, &c), 8);
	assert_int_equal(c, 4);
	/* malformed bytes: one character each */
	{
		static const uint8_t bad[] = {0x80, 0xC0, 0xFF, 'x'};

		assert_int_equal(pm_utf8_prefix(bad, sizeof(bad), 3, &c), 3);
		assert_int_equal(c, 3);
	}
	assert_int_equal(pm_utf8_prefix(s, 0, 3, &c), 0);
	assert_int_equal(c, 0);
}

static void
test_round_trip(void **state)
{
	static const uint32_t cps[] = {0, 0x41, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFF,
	0x10000, 0x1F600, 0x10FFFF};

	(void) state;
	for (size_t i = 0; i < sizeof(cps) / sizeof(cps[0]); i++)
	{
		uint8_t		buf[4];
		int			n = pm_utf8_encode(cps[i], buf);

		assert_int_equal(n, cps[i] < 0x80 ? 1 : cps[i] < 0x800 ? 2 : cps[i] < 0x10000 ? 3 : 4);
		assert_int_equal(pm_utf8_char_bytes(buf[0]), n);
		assert_int_equal(pm_utf8_decode(buf, n), cps[i]);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_char_bytes),
		cmocka_unit_test(test_prefix),
		cmocka_unit_test(test_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
