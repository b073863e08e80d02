/* log: the daemon's messages, to stderr (which journald collects under
 * systemd) or to syslog, with debug switched on per subsystem. */
#ifndef ROCED_LOG_H
#define ROCED_LOG_H

#include <stdbool.h>
#include <stddef.h>

enum log_subsys {
	LOG_SUB_CONF,
	LOG_SUB_APPLY,
	LOG_SUB_LINK,
	LOG_SUB_DCBX,
	LOG_SUB_WATCHDOG,
	LOG_SUB_CTL,
	LOG_SUB_MAX,
};

/* Send messages to syslog instead of stderr. */
void log_init(const char *ident, bool to_syslog);
/* Turn debug on for a comma-separated list of subsystems ("all" for
 * every one). Returns 0, or -1 naming the bad word in ERR. */
int log_debug_enable(const char *list, char *err, size_t errlen);
/* The same, turning debug off ("all": every subsystem). */
int log_debug_disable(const char *list, char *err, size_t errlen);
bool log_debug_on(enum log_subsys s);
const char *log_subsys_name(enum log_subsys s);

void log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A warning with strerror(errno) appended. */
void log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A warning without errno. */
void log_warnx(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_debug(enum log_subsys s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
