/* log: see log.h. The daemon's only global state lives here: where
 * messages go and which debug subsystems are on. */
#include "os/log.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>

#include "base/escape.h"
#include "base/names.h"

static bool log_syslog;
static unsigned log_debug_mask;

/* The subsystems' names are lib/base/names.c's table, in its order. */
_Static_assert(LOG_SUB_CONF == (int)NAMES_DEBUG_CONF &&
                   LOG_SUB_APPLY == (int)NAMES_DEBUG_APPLY &&
                   LOG_SUB_LINK == (int)NAMES_DEBUG_LINK &&
                   LOG_SUB_DCBX == (int)NAMES_DEBUG_DCBX &&
                   LOG_SUB_WATCHDOG == (int)NAMES_DEBUG_WATCHDOG &&
                   LOG_SUB_CTL == (int)NAMES_DEBUG_CTL &&
                   LOG_SUB_MAX == (int)NAMES_DEBUG_MAX,
               "enum log_subsys follows enum names_debug");

void log_init(const char *ident, bool to_syslog)
{
	log_syslog = to_syslog;
	if (to_syslog)
		openlog(ident, LOG_PID | LOG_NDELAY, LOG_DAEMON);
}

const char *log_subsys_name(enum log_subsys s)
{
	return names_debug_name((enum names_debug)s);
}

static int log_debug_set(const char *list, bool on, char *err, size_t errlen)
{
	char buf[256], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", list);
	for (char *tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		char expected[128];
		int i;

		if (!strcmp(tok, NAMES_DEBUG_ALL)) {
			log_debug_mask = on ? (1u << LOG_SUB_MAX) - 1 : 0;
			continue;
		}
		i = names_debug_parse(tok);
		if (i < 0) {
			names_debug_expected(expected, sizeof(expected));
			snprintf(err, errlen,
			         "unknown debug subsystem '%s', expected %s",
			         tok, expected);
			return -1;
		}
		if (on)
			log_debug_mask |= 1u << i;
		else
			log_debug_mask &= ~(1u << i);
	}
	return 0;
}

int log_debug_enable(const char *list, char *err, size_t errlen)
{
	return log_debug_set(list, true, err, errlen);
}

int log_debug_disable(const char *list, char *err, size_t errlen)
{
	return log_debug_set(list, false, err, errlen);
}

bool log_debug_on(enum log_subsys s)
{
	return (unsigned)s < LOG_SUB_MAX && (log_debug_mask & (1u << s));
}

static void log_vout(int prio, const char *tag, const char *fmt, va_list ap,
                     const char *suffix)
{
	char raw[1024], msg[4 * sizeof(raw)];
	int n = vsnprintf(raw, sizeof(raw), fmt, ap);

	/* A log line never carries a control byte or invalid UTF-8, whatever
	 * a message quoted (a peer's name, a client's request): a newline
	 * would forge a second line, an escape would act on the terminal. */
	if (n < 0)
		n = 0;
	if ((size_t)n >= sizeof(raw))
		n = (int)sizeof(raw) - 1;
	escape_buf(msg, sizeof(msg), raw, (size_t)n, 0);
	if (log_syslog) {
		syslog(prio, "%s%s%s%s", tag, msg, suffix ? ": " : "",
		       suffix ? suffix : "");
		return;
	}
	fprintf(stderr, "roced: %s%s%s%s\n", tag, msg, suffix ? ": " : "",
	        suffix ? suffix : "");
}

void log_info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vout(LOG_INFO, "", fmt, ap, NULL);
	va_end(ap);
}

void log_warn(const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	va_start(ap, fmt);
	log_vout(LOG_WARNING, "warning: ", fmt, ap, strerror(saved));
	va_end(ap);
}

void log_warnx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vout(LOG_WARNING, "warning: ", fmt, ap, NULL);
	va_end(ap);
}

void log_debug(enum log_subsys s, const char *fmt, ...)
{
	char tag[32];
	va_list ap;

	if (!log_debug_on(s))
		return;
	snprintf(tag, sizeof(tag), "%s: ", log_subsys_name(s));
	va_start(ap, fmt);
	log_vout(LOG_DEBUG, tag, fmt, ap, NULL);
	va_end(ap);
}
