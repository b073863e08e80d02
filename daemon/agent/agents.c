/* agents: see agents.h. */
#include "agent/agents.h"

#include <string.h>

#include "core/log.h"

void agents_init(struct agents *a, int epfd, const struct frame_ops *ops,
                 void *impl)
{
	memset(a, 0, sizeof(*a));
	frames_init(&a->frames, ops ? ops : &frame_ops_packet, impl, epfd);
	a->dirty = true;
}

void agents_free(struct agents *a)
{
	frames_free(&a->frames);
}

/* Whether IFNAME is a port of P (by its Linux name). */
static bool agents_configured(const struct policy *p, const char *ifname)
{
	for (size_t i = 0; i < p->nifaces; i++)
		if (!strcmp(p->ifaces[i].name, ifname))
			return true;
	return false;
}

void agents_sync(struct agents *a, const struct policy *p, struct link_mon *lm)
{
	a->dirty = false;
	/* Ports no longer configured, gone, or down administratively. */
	for (size_t i = a->frames.n; i-- > 0;) {
		const struct frame_port *fp = &a->frames.v[i];
		struct link_info li;

		if (!agents_configured(p, fp->ifname) ||
		    link_lookup(lm, fp->ifname, &li) < 0 || !li.up)
			frames_detach(&a->frames, fp->ifname);
	}
	for (size_t i = 0; i < p->nifaces; i++) {
		struct link_info li;
		int rc;

		if (link_lookup(lm, p->ifaces[i].name, &li) < 0 || !li.up)
			continue;
		rc = frames_attach(&a->frames, li.name, li.ifindex, li.mac);
		if (rc < 0)
			log_warnx("%s: cannot open its raw-frame socket: %s",
			          li.name, strerror(-rc));
	}
}

bool agents_fd(struct agents *a, int fd, double now_ms)
{
	if (!frames_by_fd(&a->frames, fd))
		return false;
	frames_process(&a->frames, fd, now_ms);
	return true;
}

int agents_wait(const struct agents *a, double now_ms)
{
	(void)a;
	(void)now_ms;
	return -1;
}

void agents_tick(struct agents *a, double now_ms)
{
	(void)a;
	(void)now_ms;
}
