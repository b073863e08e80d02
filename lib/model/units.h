/* units: the size units of WRED thresholds, one table for every reader
 * and writer of sizes (roced.conf, rocesh's random-detect, show, and
 * validation's messages).
 *
 * A size is "N bytes", "N kbytes" or "N mbytes": kbytes = 1024 bytes and
 * mbytes = 1048576 bytes, as tc's "kb"/"mb" and as switch buffers count.
 * "N packets" is refused: roced works in bytes.
 */
#ifndef ROCED_UNITS_H
#define ROCED_UNITS_H

#include <stddef.h>
#include <stdint.h>

/* Smallest first. */
enum units_size {
	UNITS_BYTES,
	UNITS_KBYTES,
	UNITS_MBYTES,
	UNITS_SIZE_MAX,
};

/* "bytes", "kbytes", "mbytes" ("?" for anything else); units_size_parse
 * is its inverse (-1 if unknown). */
const char *units_size_name(enum units_size u);
int units_size_parse(const char *name);
/* What one U is worth in bytes (0 for an unknown U). */
uint64_t units_size_bytes(enum units_size u);
/* What rocesh's `?` says of U, e.g. "In kilobytes (1024 bytes)". */
const char *units_size_help(enum units_size u);

/* The rate units of `shape min N UNIT max M UNIT`, the same way: kbps
 * = 1000 bits per second (rates count in powers of ten). */
enum units_rate {
	UNITS_KBPS,
	UNITS_MBPS,
	UNITS_GBPS,
	UNITS_RATE_MAX,
};
const char *units_rate_name(enum units_rate u);
int units_rate_parse(const char *name);
uint64_t units_rate_kbps(enum units_rate u);
const char *units_rate_help(enum units_rate u);
/* "10 gbps" -> kbps; 0, or -1 with a message in ERR. */
int units_kbps_parse(const char *s, uint64_t *kbps, char *err, size_t errlen);
/* The exact form with the largest unit: 10000000 -> "10 gbps". */
int units_kbps_format(uint64_t kbps, char *buf, size_t len);

/* "150 kbytes", "3000000 bytes", "2 mbytes" (the unit may follow the
 * number with or without a space) -> bytes. Returns 0, or -1 with a
 * message naming the bad text in ERR. */
int units_bytes_parse(const char *s, uint64_t *bytes, char *err, size_t errlen);
/* The exact form with the largest unit: 153600 -> "150 kbytes". Returns
 * the length snprintf would have written. */
int units_bytes_format(uint64_t bytes, char *buf, size_t len);

#endif
