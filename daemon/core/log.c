/* log: see log.h. The daemon's only global state lives here: where
 * messages go and which debug subsystems are on. */
#include "core/log.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>

static bool log_syslog;
static unsigned log_debug_mask;

static const char *const log_names[LOG_SUB_MAX] = {
    [LOG_SUB_CONF] = "conf",         [LOG_SUB_APPLY] = "apply",
    [LOG_SUB_LINK] = "link",         [LOG_SUB_DCBX] = "dcbx",
    [LOG_SUB_WATCHDOG] = "watchdog", [LOG_SUB_CTL] = "ctl",
};

void log_init(const char *ident, bool to_syslog)
{
	log_syslog = to_syslog;
	if (to_syslog)
		openlog(ident, LOG_PID | LOG_NDELAY, LOG_DAEMON);
}

const char *log_subsys_name(enum log_subsys s)
{
	return (unsigned)s < LOG_SUB_MAX ? log_names[s] : "?";
}

static int log_debug_set(const char *list, bool on, char *err, size_t errlen)
{
	char buf[256], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", list);
	for (char *tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		unsigned i;

		if (!strcmp(tok, "all")) {
			log_debug_mask = on ? (1u << LOG_SUB_MAX) - 1 : 0;
			continue;
		}
		for (i = 0; i < LOG_SUB_MAX; i++)
			if (!strcmp(tok, log_names[i]))
				break;
		if (i == LOG_SUB_MAX) {
			snprintf(err, errlen,
			         "unknown debug subsystem '%s', expected all, "
			         "conf, apply, link, dcbx, watchdog or ctl",
			         tok);
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
	char msg[1024];

	vsnprintf(msg, sizeof(msg), fmt, ap);
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
