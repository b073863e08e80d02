/* fuzz_lldp: the LLDPDU/DCBX decoder (lib/proto/lldp.h) on arbitrary
 * bytes, as any station on the link may send them, in an exact-size
 * malloc'd copy. What it accepts is printed, negotiated against a
 * switch's configuration (legacy CEE values too), and encoded and decoded
 * again: the values roced sends on must come back the same (the unknown TLVs,
 * the APP entries past DCBX_APP_MAX and legacy DCBX are never sent; a
 * later version of roced's wait chains TLV goes out as roced's own). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "base/strbuf.h"
#include "proto/dcbx.h"
#include "proto/lldp.h"
#include "proto/pfcdl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz_lldp_round_trip(struct lldp_pdu *p)
{
	static struct lldp_pdu q;
	static uint8_t buf[8192];
	char err[256];
	int n = lldp_encode(p, buf, sizeof(buf));

	if (n < 0 || lldp_decode(buf, (size_t)n, &q, err, sizeof(err)) < 0)
		abort();
	/* What is not sent on. */
	p->nunknown = 0;
	memset(p->unknown, 0, sizeof(p->unknown));
	p->app_over = 0;
	p->dcbx.cee = false;
	memset(&p->cee, 0, sizeof(p->cee));
	/* A later version's wait chains: roced reads none and would say
	 * its own version. */
	if (p->pfcdl.present && p->pfcdl.version != PFCDL_VERSION)
		p->pfcdl.version = PFCDL_VERSION;
	if (memcmp(p, &q, sizeof(q)) != 0)
		abort();
}

/* The escaping itself, on the raw bytes: clean, and as long as the
 * escapes say. */
static void fuzz_lldp_escape(const uint8_t *data, size_t size)
{
	struct strbuf sb;
	char small[37];
	size_t n;

	strbuf_init(&sb);
	escape_add(&sb, data, size, ESCAPE_BACKSLASH);
	if (sb.oom || !escape_is_clean(sb.s, sb.len, false) || sb.len < size ||
	    sb.len > 4 * size)
		abort();
	n = escape_buf(small, sizeof(small), data, size, 0);
	if (n >= sizeof(small) || small[n] || !escape_is_clean(small, n, false))
		abort();
	strbuf_free(&sb);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t mac[6] = {0x02, 0, 0, 0, 0, 0x01};
	static struct lldp_pdu pdu;
	static struct dcbx_tlvs local, cee;
	struct dcbx_oper oper;
	struct strbuf sb;
	char err[256];
	uint8_t *buf = malloc(size ? size : 1);

	if (!buf)
		return 0;
	fuzz_lldp_escape(data, size);
	memcpy(buf, data, size);
	if (lldp_decode(buf, size, &pdu, err, sizeof(err)) == 0) {
		strbuf_init(&sb);
		lldp_print(&pdu, &sb);
		/* Whatever the peer sent, the text has no control byte but
		 * its line ends and is valid UTF-8. */
		if (sb.oom || !escape_is_clean(sb.s, sb.len, true))
			abort();
		strbuf_free(&sb);
		local.has_pfc = local.has_ets_cfg = local.has_app = true;
		local.pfc.enable = 0x08;
		local.pfc.willing = size & 1;
		local.ets_cfg.willing = size & 2;
		local.app.n = 1;
		local.app.v[0] = (struct dcbx_app){3, DCBX_APP_DSCP, 26};
		dcbx_negotiate(&local, mac, &pdu.dcbx, size >= 6 ? buf : mac,
		               &oper);
		fuzz_lldp_round_trip(&pdu);
	} else if (!err[0]) {
		abort(); /* a refusal always says why */
	}
	free(buf);
	return 0;
}
