/* prom: the Prometheus text exposition format, version 0.0.4, written
 * from pure code (show metrics, the metrics textfile).
 *
 * A family is its "# HELP" and "# TYPE" lines followed by its samples,
 * each "name{label="value",...} value". Label values are the bytes of
 * the outside world (a link's name, an NX-OS alias): they are made
 * valid UTF-8 first (base/escape.h: a control or stray byte becomes the
 * text "\xNN") and then escaped as the format wants ('\\', '"', '\n').
 */
#ifndef ROCED_PROM_H
#define ROCED_PROM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"

/* The metric types roced exposes; the one name table of them. */
enum prom_type {
	PROM_COUNTER,
	PROM_GAUGE,
	/* NAME_bucket{le="..."} (cumulative, the last le="+Inf"),
	 * NAME_sum and NAME_count: quantiles are the server's to work out
	 * (histogram_quantile), over any window and across switches, which
	 * a summary's cannot be. */
	PROM_HISTOGRAM,
};
#define PROM_TYPE_COUNT (PROM_HISTOGRAM + 1)

/* "counter", "gauge", "histogram" ("untyped" out of range); the inverse
 * returns the type or -1. */
const char *prom_type_name(enum prom_type t);
int prom_type_parse(const char *s);

/* Metric names match [a-zA-Z_:][a-zA-Z0-9_:]*, label names
 * [a-zA-Z_][a-zA-Z0-9_]* and do not start with "__" (reserved). */
bool prom_name_ok(const char *name);
bool prom_label_name_ok(const char *name);

/* The "# HELP NAME HELP" and "# TYPE NAME TYPE" lines (HELP escaped). */
void prom_family(struct strbuf *sb, const char *name, enum prom_type t,
                 const char *help);

struct prom_label {
	const char *name, *value;
};

/* One sample line: NAME (and SUFFIX, may be NULL: "_bucket", "_sum",
 * "_count"),
 * the N labels with their values escaped, and VALUE as prom_int() or
 * prom_double() wrote it. */
void prom_sample(struct strbuf *sb, const char *name, const char *suffix,
                 const struct prom_label *l, size_t n, const char *value);

/* A label value as the format writes it between its quotes. */
void prom_label_value(struct strbuf *sb, const char *v);

/* A sample value into BUF (at least PROM_VALUE_MAX bytes): integers as
 * they are, floats so that they read back the same, NaN and +Inf/-Inf
 * by the format's names. */
#define PROM_VALUE_MAX 40
void prom_int(char *buf, int64_t v);
void prom_uint(char *buf, uint64_t v);
void prom_double(char *buf, double v);

#endif
