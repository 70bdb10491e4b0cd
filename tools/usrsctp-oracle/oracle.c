/*
 * usrsctp-oracle: one SCTP bulk transfer between two usrsctp endpoints in one process,
 * in simulated time, through a small link model. The validation reference for
 * transportlab's ns-3 SCTP model (src/transportlab/studies/sctp_validation/stacks.py runs the same scenario
 * on both and compares them).
 *
 * usrsctp is driven without threads (usrsctp_init_nothreads): the program owns the
 * clock (usrsctp_handle_timers every simulated millisecond) and every packet (AF_CONN:
 * conn_output hands a packet to the link model, usrsctp_conninput delivers it). The
 * library reads the time with gettimeofday() and random bytes with the getrandom system
 * call; the executable is linked with -Wl,--wrap=gettimeofday,--wrap=syscall so both
 * come from here: simulated time and a seeded generator. Same arguments, same trace.
 *
 * Usage: usrsctp-oracle key=value ...   (usrsctp-oracle --help lists the keys)
 * Output (stdout): CSV "time_ns,event,dir,tsn,value,kind", see print_help().
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>
#include <usrsctp.h>

/* ------------------------------------------------------------------ scenario */

#define MAX_LIST 4096

struct scenario {
	double rate_bps;          /* link rate, both directions */
	double delay_ms;          /* one-way propagation delay */
	long queue_packets;       /* packets that may wait at each link's sender */
	long mtu;                 /* IP MTU (the AF_CONN packet gets 20 bytes of IPv4 counted) */
	long message_size;        /* bytes per send call (one SCTP message) */
	long total_bytes;         /* bytes to transfer */
	long streams;             /* messages go round-robin over this many streams */
	long drop_packets[MAX_LIST]; /* forward-link packet numbers (1 = INIT) to drop */
	int n_drop_packets;
	long drop_tsns[MAX_LIST]; /* relative TSNs (0 = first DATA TSN) ... */
	long drop_tsn_times[MAX_LIST]; /* ... and how many transmissions of each to drop */
	int n_drop_tsns;
	double loss_rate;         /* random loss on the forward link, by packet number */
	uint64_t loss_seed;
	uint64_t seed;            /* usrsctp's random bytes (tags, initial TSN, nonces) */
	long rto_initial_ms, rto_min_ms, rto_max_ms;
	long sack_delay_ms, sack_freq;
	long sndbuf, rcvbuf;
	long max_burst;
	long initial_cwnd_mtus;   /* usrsctp sctp_initial_cwnd (0 = library default) */
	long abc_l;               /* usrsctp sctp_L2_abc_variable (-1 = library default) */
	long cwnd_maxburst;       /* usrsctp sctp_use_cwnd_based_maxburst (-1 = default) */
	long peer_chunk_oh;       /* usrsctp sctp_peer_chunk_oh (-1 = default) */
	double stop_s;            /* give up after this much simulated time */
	/* Stream reset (RFC 6525), off unless reset_dir is set: 1 = the client resets its
	 * outgoing stream reset_stream once it has written reset_after messages; 2 = the
	 * server asks for its incoming stream reset_stream to be reset once it has received
	 * reset_after messages, and the client writes the rest after its reset event. */
	long reset_dir, reset_after, reset_stream;
	/* Message interleaving (RFC 8260), off unless small_count > 0: the bulk (total_bytes in
	 * messages of message_size) goes on stream 0, written as fast as the send buffer takes
	 * it; small_count messages of small_size bytes on stream 1, one due every
	 * small_interval_ms from small_start_ms (written when due, or as soon as the buffer
	 * takes it). idata = 1 turns I-DATA on (SCTP_FRAGMENT_INTERLEAVE 2, then the socket
	 * option SCTP_INTERLEAVING_SUPPORTED, which usrsctp.h does not export); ss >= 0 sets
	 * the stream scheduler (SCTP_PLUGGABLE_SS: 0 default, 1 RR, 2 RR per packet, 3
	 * priority, 4 fair bandwidth, 5 first come), prio0/prio1 the SCTP_SS_VALUE of streams
	 * 0 and 1 (the priority scheduler serves the lower value first). */
	long small_count, small_size, small_interval_ms, small_start_ms;
	long idata, ss, prio0, prio1;
	/* chunk_trace = 1: one chunk_tx row per DATA / I-DATA chunk the client sends (its
	 * stream, flags and message), for tracing what the stream scheduler puts on the wire. */
	long chunk_trace;
};

static struct scenario sc = {
	.rate_bps = 10e6, .delay_ms = 10, .queue_packets = 100, .mtu = 1500,
	.message_size = 1452, .total_bytes = 1000000, .streams = 1, .loss_rate = 0,
	.loss_seed = 1, .seed = 1, .rto_initial_ms = 1000, .rto_min_ms = 1000,
	.rto_max_ms = 60000, .sack_delay_ms = 200, .sack_freq = 2, .sndbuf = 131072,
	.rcvbuf = 131072, .max_burst = 4, .initial_cwnd_mtus = 0, .abc_l = -1,
	.cwnd_maxburst = -1, .peer_chunk_oh = -1, .stop_s = 600,
	.reset_dir = 0, .reset_after = 0, .reset_stream = 1,
	.small_count = 0, .small_size = 100, .small_interval_ms = 20, .small_start_ms = 0,
	.idata = 0, .ss = -1, .prio0 = 0, .prio1 = 0, .chunk_trace = 0,
};

#ifndef SCTP_INTERLEAVING_SUPPORTED
#define SCTP_INTERLEAVING_SUPPORTED 0x00001206 /* usrsctplib/netinet/sctp.h, not exported */
#endif

static void print_help(void)
{
	puts("usrsctp-oracle key=value ...\n"
	     "keys: rate_bps delay_ms queue_packets mtu message_size total_bytes streams\n"
	     "      drop_packets=N,N,...  (forward-link packet numbers, 1 = INIT)\n"
	     "      drop_tsns=T[:K],...   (relative TSN T, 0 = first DATA; drop its first K\n"
	     "                             transmissions, K = 1 if omitted)\n"
	     "      loss_rate loss_seed seed rto_initial_ms rto_min_ms rto_max_ms\n"
	     "      sack_delay_ms sack_freq sndbuf rcvbuf max_burst initial_cwnd_mtus abc_l\n"
	     "      cwnd_maxburst peer_chunk_oh stop_s\n"
	     "      reset_dir (0 none, 1 client outgoing, 2 server incoming) reset_after\n"
	     "      reset_stream (stream reset, RFC 6525; see struct scenario)\n"
	     "      small_count small_size small_interval_ms small_start_ms idata ss prio0\n"
	     "      prio1 (bulk on stream 0 + small messages on stream 1, RFC 8260)\n"
	     "      chunk_trace (1: a chunk_tx row per DATA / I-DATA chunk sent)\n"
	     "output: CSV time_ns,event,dir,tsn,value,kind with events\n"
	     "  pkt_tx/pkt_rx (value = frame bytes, kind = chunk types, tsn = first DATA TSN or\n"
	     "  SACK cumulative TSN ack, relative to the first DATA TSN), pkt_drop (kind = list,\n"
	     "  tsn, random, queue), data_tx (value = payload, kind = new/fast/t3), cwnd, rto_ms,\n"
	     "  srtt_ms, peer_rwnd, t3_timeout, fast_rtx (value = cumulative count),\n"
	     "  deliver (value = bytes), established, complete, end (kind = ok/timeout);\n"
	     "  with reset_dir: deliver_ssn (value = SSN, kind = stream), reset_request\n"
	     "  (dir fwd = client, rev = server; value = 0 or errno), reset_event (value =\n"
	     "  usrsctp strreset_flags, kind = the first stream listed); with small_count:\n"
	     "  msg_write / msg_deliver (value = message id: bulk 0.., small 1000000 + k;\n"
	     "  kind = stream), idata (value = 1 if the association negotiated I-DATA);\n"
	     "  with chunk_trace: chunk_tx after its packet's pkt_tx (tsn = relative TSN,\n"
	     "  value = payload bytes, kind = stream/flags/message: flags the chunk's flag\n"
	     "  byte (1 E, 2 B, 4 U, 8 I), message the SSN with DATA, the MID with I-DATA)");
}

static void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("usrsctp-oracle: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(2);
}

static double parse_double(const char *key, const char *v, double lo, double hi)
{
	char *end;
	errno = 0;
	double x = strtod(v, &end);
	if (errno || end == v || *end || x < lo || x > hi)
		die("%s=%s: expected a number in [%g, %g]", key, v, lo, hi);
	return x;
}

static long parse_long(const char *key, const char *v, long lo, long hi)
{
	char *end;
	errno = 0;
	long x = strtol(v, &end, 10);
	if (errno || end == v || *end || x < lo || x > hi)
		die("%s=%s: expected an integer in [%ld, %ld]", key, v, lo, hi);
	return x;
}

static void parse_arg(const char *arg)
{
	const char *eq = strchr(arg, '=');
	if (!eq)
		die("argument '%s' is not key=value (--help lists the keys)", arg);
	char key[64];
	size_t n = (size_t)(eq - arg);
	if (n >= sizeof key)
		die("unknown key in '%s'", arg);
	memcpy(key, arg, n);
	key[n] = 0;
	const char *v = eq + 1;
#define D(name, lo, hi) if (!strcmp(key, #name)) { sc.name = parse_double(key, v, lo, hi); return; }
#define L(name, lo, hi) if (!strcmp(key, #name)) { sc.name = parse_long(key, v, lo, hi); return; }
	D(rate_bps, 1e3, 1e11)
	D(delay_ms, 0, 1e5)
	L(queue_packets, 1, 1000000)
	L(mtu, 576, 65535)
	L(message_size, 1, 1 << 20)
	L(total_bytes, 1, 1L << 32)
	L(streams, 1, 1000)
	D(loss_rate, 0, 0.5)  /* of packets carrying DATA, keyed by TSN and transmission */
	L(rto_initial_ms, 1, 3600000)
	L(rto_min_ms, 1, 3600000)
	L(rto_max_ms, 1, 3600000)
	L(sack_delay_ms, 0, 500)
	L(sack_freq, 1, 100)
	L(sndbuf, 4096, 1L << 30)
	L(rcvbuf, 4096, 1L << 30)
	L(max_burst, 0, 1000)
	L(initial_cwnd_mtus, 0, 1000)
	L(abc_l, -1, 100)
	L(cwnd_maxburst, -1, 1)
	L(peer_chunk_oh, -1, 65536)
	D(stop_s, 0.001, 1e6)
	L(reset_dir, 0, 2)
	L(reset_after, 0, 1L << 31)
	L(reset_stream, 0, 999)
	L(small_count, 0, 100000)
	L(small_size, 4, 65536)
	L(small_interval_ms, 1, 1000000)
	L(small_start_ms, 0, 100000000)
	L(idata, 0, 1)
	L(ss, -1, 5)
	L(prio0, 0, 65535)
	L(prio1, 0, 65535)
	L(chunk_trace, 0, 1)
#undef D
#undef L
	if (!strcmp(key, "seed") || !strcmp(key, "loss_seed")) {
		uint64_t x = (uint64_t)parse_long(key, v, 0, INT64_MAX);
		if (key[0] == 's')
			sc.seed = x;
		else
			sc.loss_seed = x;
		return;
	}
	if (!strcmp(key, "drop_packets") || !strcmp(key, "drop_tsns")) {
		int is_tsn = key[5] == 't';
		char buf[65536];
		if (strlen(v) >= sizeof buf)
			die("%s: list too long", key);
		strcpy(buf, v);
		for (char *save, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			if (is_tsn) {
				if (sc.n_drop_tsns >= MAX_LIST)
					die("drop_tsns: more than %d entries", MAX_LIST);
				char *colon = strchr(tok, ':');
				long times = 1;
				if (colon) {
					*colon = 0;
					times = parse_long(key, colon + 1, 1, 1000);
				}
				sc.drop_tsns[sc.n_drop_tsns] = parse_long(key, tok, 0, INT32_MAX);
				sc.drop_tsn_times[sc.n_drop_tsns++] = times;
			} else {
				if (sc.n_drop_packets >= MAX_LIST)
					die("drop_packets: more than %d entries", MAX_LIST);
				sc.drop_packets[sc.n_drop_packets++] = parse_long(key, tok, 1, INT32_MAX);
			}
		}
		return;
	}
	die("unknown key '%s' (--help lists the keys)", key);
}

/* ------------------------------------------------------------------ clock and randomness */

static int64_t now_ns;           /* simulated time */
static const int64_t EPOCH_S = 1700000000; /* what gettimeofday() reports at time 0 */
static uint64_t rng_state;

int __wrap_gettimeofday(struct timeval *tv, void *tz)
{
	(void)tz;
	int64_t us = now_ns / 1000;
	tv->tv_sec = (time_t)(EPOCH_S + us / 1000000);
	tv->tv_usec = (suseconds_t)(us % 1000000);
	return 0;
}

/* splitmix64: the generator of usrsctp's random bytes and of the random loss. */
static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

long __real_syscall(long number, ...);

long __wrap_syscall(long number, ...)
{
	va_list ap;
	va_start(ap, number);
	if (number == SYS_getrandom) {
		unsigned char *buf = va_arg(ap, unsigned char *);
		size_t len = va_arg(ap, size_t);
		va_end(ap);
		for (size_t i = 0; i < len; i++)
			buf[i] = (unsigned char)(splitmix64(&rng_state) >> 56);
		return (long)len;
	}
	long a[6];
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	return __real_syscall(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}

/* Random loss of a forward packet carrying DATA, decided by a hash of the seed, the
 * relative TSN of its first DATA chunk and how many times that TSN reached the link's far
 * end before: the same losses of the same data in both stacks, whatever their packet
 * numbering (transportlab.studies.sctp_validation.stacks.random_loss, ns3::SctpDropErrorModel). */
static int random_loss(uint64_t rel_tsn, uint64_t transmission)
{
	if (sc.loss_rate <= 0)
		return 0;
	uint64_t key = rel_tsn * 1024 + (transmission < 1023 ? transmission : 1023);
	uint64_t s = sc.loss_seed * 0x100000001b3ULL + key;
	double u = (double)(splitmix64(&s) >> 11) * (1.0 / 9007199254740992.0);
	return u < sc.loss_rate;
}

/* ------------------------------------------------------------------ trace */

static void trace(const char *event, const char *dir, long long tsn, long long value,
		  const char *kind)
{
	printf("%" PRId64 ",%s,%s,%lld,%lld,%s\n", now_ns, event, dir, tsn, value, kind);
}

/* ------------------------------------------------------------------ link model */

/* A packet in flight: arrives at `at` at the other endpoint. */
struct pkt {
	int64_t at;
	uint64_t order;
	int dir; /* 0 = forward (client to server), 1 = reverse */
	size_t len;
	unsigned char *data;
};

static struct pkt *heap;
static size_t heap_n, heap_cap;
static uint64_t order_counter;

static int pkt_before(const struct pkt *a, const struct pkt *b)
{
	return a->at < b->at || (a->at == b->at && a->order < b->order);
}

static void heap_push(struct pkt p)
{
	if (heap_n == heap_cap) {
		heap_cap = heap_cap ? heap_cap * 2 : 1024;
		heap = realloc(heap, heap_cap * sizeof *heap);
		if (!heap)
			die("out of memory");
	}
	size_t i = heap_n++;
	heap[i] = p;
	while (i > 0) {
		size_t parent = (i - 1) / 2;
		if (!pkt_before(&heap[i], &heap[parent]))
			break;
		struct pkt t = heap[i];
		heap[i] = heap[parent];
		heap[parent] = t;
		i = parent;
	}
}

static struct pkt heap_pop(void)
{
	struct pkt top = heap[0];
	heap[0] = heap[--heap_n];
	size_t i = 0;
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < heap_n && pkt_before(&heap[l], &heap[m]))
			m = l;
		if (r < heap_n && pkt_before(&heap[r], &heap[m]))
			m = r;
		if (m == i)
			break;
		struct pkt t = heap[i];
		heap[i] = heap[m];
		heap[m] = t;
		i = m;
	}
	return top;
}

/* Per direction: transmission start times of the packets not yet started (a FIFO of
 * scheduled starts) and when the transmitter is free again. A packet waits in the queue
 * from its arrival at the link until its transmission starts, as in ns-3's
 * PointToPointNetDevice with a DropTail queue of queue_packets packets. */
struct link {
	int64_t free_at;
	int64_t *starts;
	size_t head, tail, cap;
};
static struct link links[2];

static size_t link_waiting(struct link *l)
{
	while (l->head < l->tail && l->starts[l->head % l->cap] <= now_ns)
		l->head++;
	return l->tail - l->head;
}

static const int FRAME_OVERHEAD = 20 + 2; /* IPv4 header + PPP header, as in ns-3 */

static unsigned char ep_client, ep_server; /* AF_CONN address tokens */
static uint64_t fwd_packets;               /* forward packets that reached the far end */
static uint32_t tsn_base;
static int tsn_base_set;
static long tsn_drops_left[MAX_LIST];
static uint32_t highest_tsn_sent;
static int any_tsn_sent;

/* Retransmitted chunks output during the current usrsctp call, labelled afterwards. */
static long long pending_rtx_tsn[MAX_LIST];
static long long pending_rtx_len[MAX_LIST];
static int64_t pending_rtx_time[MAX_LIST];
static int n_pending_rtx;

static uint32_t rd32(const unsigned char *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

static const char *chunk_name(unsigned t)
{
	switch (t) {
	case 0: return "DATA";
	case 64: return "I_DATA";
	case 1: return "INIT";
	case 2: return "INIT_ACK";
	case 3: return "SACK";
	case 4: return "HEARTBEAT";
	case 5: return "HEARTBEAT_ACK";
	case 6: return "ABORT";
	case 7: return "SHUTDOWN";
	case 8: return "SHUTDOWN_ACK";
	case 9: return "ERROR";
	case 10: return "COOKIE_ECHO";
	case 11: return "COOKIE_ACK";
	case 14: return "SHUTDOWN_COMPLETE";
	case 192: return "FORWARD_TSN";
	default: return "OTHER";
	}
}

/* Chunk summary ("DATA+SACK"), the first DATA TSN or a SACK's cumulative TSN ack
 * (relative to the first DATA TSN, -1 if none), and a callback per DATA chunk. */
static long long describe(const unsigned char *p, size_t len, char *kinds, size_t kcap,
			  void (*each_data)(uint32_t tsn, size_t payload))
{
	size_t off = 12;
	long long first = -1;
	kinds[0] = 0;
	while (off + 4 <= len) {
		unsigned type = p[off];
		size_t clen = ((size_t)p[off + 2] << 8) | p[off + 3];
		if (clen < 4 || off + clen > len)
			break;
		const char *name = chunk_name(type);
		if (kinds[0] && strlen(kinds) + 1 < kcap)
			strcat(kinds, "+");
		if (strlen(kinds) + strlen(name) < kcap)
			strcat(kinds, name);
		if (type == 3 && clen >= 8 && first < 0 && tsn_base_set)
			first = (long long)(uint32_t)(rd32(p + off + 4) - tsn_base); /* cum TSN ack */
		if ((type == 0 && clen >= 16) || (type == 64 && clen >= 20)) {
			uint32_t tsn = rd32(p + off + 4);
			if (!tsn_base_set) {
				tsn_base = tsn;
				tsn_base_set = 1;
			}
			if (first < 0)
				first = (long long)(uint32_t)(tsn - tsn_base);
			if (each_data)
				each_data(tsn, clen - (type == 64 ? 20 : 16));
		}
		off += (clen + 3) & ~(size_t)3;
	}
	return first;
}

static void on_data_sent(uint32_t tsn, size_t payload)
{
	long long rel = (long long)(uint32_t)(tsn - tsn_base);
	if (any_tsn_sent && (int32_t)(tsn - highest_tsn_sent) <= 0) {
		if (n_pending_rtx < MAX_LIST) {
			pending_rtx_tsn[n_pending_rtx] = rel;
			pending_rtx_len[n_pending_rtx] = (long long)payload;
			pending_rtx_time[n_pending_rtx++] = now_ns;
		}
		return;
	}
	highest_tsn_sent = tsn;
	any_tsn_sent = 1;
	trace("data_tx", "fwd", rel, (long long)payload, "new");
}

/* chunk_trace: one row per DATA / I-DATA chunk of a forward packet (RFC 9260 3.3.1,
 * RFC 8260 2.1): stream, flags, and SSN (DATA) or MID (I-DATA). */
static void trace_chunks(const unsigned char *p, size_t len)
{
	size_t off = 12;
	while (off + 4 <= len) {
		unsigned type = p[off];
		size_t clen = ((size_t)p[off + 2] << 8) | p[off + 3];
		if (clen < 4 || off + clen > len)
			break;
		int idata = type == 64;
		if ((type == 0 && clen >= 16) || (idata && clen >= 20)) {
			uint32_t tsn = rd32(p + off + 4);
			unsigned sid = ((unsigned)p[off + 8] << 8) | p[off + 9];
			uint32_t msg = idata ? rd32(p + off + 12)
					     : (((uint32_t)p[off + 10] << 8) | p[off + 11]);
			char kind[64];
			snprintf(kind, sizeof kind, "%u/%u/%u", sid, (unsigned)p[off + 1], msg);
			trace("chunk_tx", "fwd", (long long)(uint32_t)(tsn - tsn_base),
			      (long long)(clen - (idata ? 20 : 16)), kind);
		}
		off += (clen + 3) & ~(size_t)3;
	}
}

static int drop_by_tsn;
static uint32_t *arrivals; /* times each relative TSN reached the far end (first chunks) */
static size_t arrivals_cap;

static uint32_t arrivals_of(uint64_t rel)
{
	if (rel >= arrivals_cap) {
		size_t ncap = arrivals_cap ? arrivals_cap : 1024;
		while (ncap <= rel)
			ncap *= 2;
		uint32_t *n = realloc(arrivals, ncap * sizeof *n);
		if (!n)
			die("out of memory");
		memset(n + arrivals_cap, 0, (ncap - arrivals_cap) * sizeof *n);
		arrivals = n;
		arrivals_cap = ncap;
	}
	return arrivals[rel]++;
}

static void on_data_arriving(uint32_t tsn, size_t payload)
{
	(void)payload;
	long long rel = (long long)(uint32_t)(tsn - tsn_base);
	for (int i = 0; i < sc.n_drop_tsns; i++) {
		if (sc.drop_tsns[i] == rel && tsn_drops_left[i] > 0) {
			tsn_drops_left[i]--;
			drop_by_tsn = 1;
		}
	}
}

static int conn_output(void *addr, void *buffer, size_t length, uint8_t tos, uint8_t set_df)
{
	(void)tos;
	(void)set_df;
	int dir = (addr == &ep_client) ? 0 : 1;
	const char *dname = dir ? "rev" : "fwd";
	char kinds[256];
	long long first = describe(buffer, length, kinds, sizeof kinds, dir ? NULL : on_data_sent);
	size_t frame = length + FRAME_OVERHEAD;
	trace("pkt_tx", dname, first, (long long)frame, kinds);
	if (sc.chunk_trace && dir == 0)
		trace_chunks(buffer, length);
	struct link *l = &links[dir];
	if (link_waiting(l) >= (size_t)sc.queue_packets && l->free_at > now_ns) {
		trace("pkt_drop", dname, first, (long long)frame, "queue");
		return 0;
	}
	int64_t start = l->free_at > now_ns ? l->free_at : now_ns;
	int64_t tx = (int64_t)((double)frame * 8.0 * 1e9 / sc.rate_bps + 0.5);
	l->free_at = start + tx;
	if (start > now_ns) {
		if (l->tail - l->head == l->cap) {
			size_t ncap = l->cap ? l->cap * 2 : 1024;
			int64_t *n = malloc(ncap * sizeof *n);
			if (!n)
				die("out of memory");
			for (size_t i = l->head; i < l->tail; i++)
				n[i - l->head] = l->starts[i % l->cap];
			free(l->starts);
			l->starts = n;
			l->tail -= l->head;
			l->head = 0;
			l->cap = ncap;
		}
		l->starts[l->tail++ % l->cap] = start;
	}
	struct pkt p = {.at = start + tx + (int64_t)(sc.delay_ms * 1e6 + 0.5),
			.order = order_counter++, .dir = dir, .len = length};
	p.data = malloc(length);
	if (!p.data)
		die("out of memory");
	memcpy(p.data, buffer, length);
	heap_push(p);
	return 0;
}

/* ------------------------------------------------------------------ endpoints */

static struct socket *client, *listener, *server;
static int established;
static long long bytes_written, bytes_delivered, messages_written;
static int64_t complete_at = -1;
static uint32_t last_cwnd, last_rto, last_srtt, last_rwnd;
static int have_paddr;
static struct sctpstat stats_before;
static int reset_requested, client_reset_seen;
static long long messages_delivered;
static long long small_written;
static int ss_values_set;
static int have_id[2];
static uint32_t cur_id[2];

/* Bytes the server must read before the transfer is complete. */
static long long target_bytes(void)
{
	return sc.total_bytes + (sc.small_count > 0 ? sc.small_count * sc.small_size : 0);
}

static void conn_addr(struct sockaddr_conn *a, void *token, uint16_t port)
{
	memset(a, 0, sizeof *a);
	a->sconn_family = AF_CONN;
	a->sconn_port = htons(port);
	a->sconn_addr = token;
}

static void set_path_mtu(struct socket *s);

static void set_sockopts(struct socket *s)
{
	int v = (int)sc.sndbuf;
	if (usrsctp_setsockopt(s, SOL_SOCKET, SO_SNDBUF, &v, sizeof v) < 0)
		die("SO_SNDBUF: %s", strerror(errno));
	v = (int)sc.rcvbuf;
	if (usrsctp_setsockopt(s, SOL_SOCKET, SO_RCVBUF, &v, sizeof v) < 0)
		die("SO_RCVBUF: %s", strerror(errno));
	v = 1;
	usrsctp_setsockopt(s, IPPROTO_SCTP, SCTP_NODELAY, &v, sizeof v); /* no Nagle */
	struct sctp_initmsg init = {.sinit_num_ostreams = (uint16_t)(sc.streams < 10 ? 10 : sc.streams),
				    .sinit_max_instreams = (uint16_t)(sc.streams < 10 ? 10 : sc.streams)};
	if (usrsctp_setsockopt(s, IPPROTO_SCTP, SCTP_INITMSG, &init, sizeof init) < 0)
		die("SCTP_INITMSG: %s", strerror(errno));
	set_path_mtu(s);
	if (sc.small_count > 0 || sc.reset_dir) {
		int on = 1; /* stream and SSN of each message (usrsctp_recvv's sctp_rcvinfo) */
		if (usrsctp_setsockopt(s, IPPROTO_SCTP, SCTP_RECVRCVINFO, &on, sizeof on) < 0)
			die("SCTP_RECVRCVINFO: %s", strerror(errno));
	}
	if (sc.idata) {
		/* RFC 8260: usrsctp accepts I-DATA only with fragment interleave level 2. */
		int level = 2;
		if (usrsctp_setsockopt(s, IPPROTO_SCTP, SCTP_FRAGMENT_INTERLEAVE, &level, sizeof level) < 0)
			die("SCTP_FRAGMENT_INTERLEAVE: %s", strerror(errno));
		struct sctp_assoc_value av = {.assoc_id = SCTP_FUTURE_ASSOC, .assoc_value = 1};
		if (usrsctp_setsockopt(s, IPPROTO_SCTP, SCTP_INTERLEAVING_SUPPORTED, &av, sizeof av) < 0)
			die("SCTP_INTERLEAVING_SUPPORTED: %s", strerror(errno));
	}
	if (sc.ss >= 0) {
		struct sctp_assoc_value av = {.assoc_id = SCTP_FUTURE_ASSOC, .assoc_value = (uint32_t)sc.ss};
		if (usrsctp_setsockopt(s, IPPROTO_SCTP, SCTP_PLUGGABLE_SS, &av, sizeof av) < 0)
			die("SCTP_PLUGGABLE_SS: %s", strerror(errno));
	}
	if (sc.reset_dir) {
		/* RFC 6525: allow stream reset requests and report their outcome. */
		struct sctp_assoc_value av = {.assoc_id = SCTP_FUTURE_ASSOC,
					      .assoc_value = SCTP_ENABLE_RESET_STREAM_REQ};
		if (usrsctp_setsockopt(s, IPPROTO_SCTP, SCTP_ENABLE_STREAM_RESET, &av, sizeof av) < 0)
			die("SCTP_ENABLE_STREAM_RESET: %s", strerror(errno));
		struct sctp_event ev = {.se_assoc_id = SCTP_FUTURE_ASSOC,
					.se_type = SCTP_STREAM_RESET_EVENT, .se_on = 1};
		if (usrsctp_setsockopt(s, IPPROTO_SCTP, SCTP_EVENT, &ev, sizeof ev) < 0)
			die("SCTP_EVENT: %s", strerror(errno));
	}
	if (usrsctp_set_non_blocking(s, 1) < 0)
		die("non-blocking: %s", strerror(errno));
}

/* AF_CONN carries no IP header; usrsctp's path MTU is set so that a full packet plus the
 * 20-byte IPv4 header the link model counts equals the scenario MTU (defaults for the
 * socket's future associations, before connect/listen). */
static void set_path_mtu(struct socket *s)
{
	struct sctp_paddrparams pp;
	memset(&pp, 0, sizeof pp);
	pp.spp_assoc_id = SCTP_FUTURE_ASSOC;
	pp.spp_flags = SPP_PMTUD_DISABLE | SPP_HB_DISABLE; /* no HEARTBEAT (ns-3: Heartbeat=MULTIHOMED) */
	pp.spp_pathmtu = (uint32_t)(sc.mtu - 20);
	if (usrsctp_setsockopt(s, IPPROTO_SCTP, SCTP_PEER_ADDR_PARAMS, &pp, sizeof pp) < 0)
		die("SCTP_PEER_ADDR_PARAMS: %s", strerror(errno));
}

static void poll_state(void)
{
	struct sctp_status st;
	socklen_t len = sizeof st;
	memset(&st, 0, sizeof st);
	if (usrsctp_getsockopt(client, IPPROTO_SCTP, SCTP_STATUS, &st, &len) < 0)
		return;
	if (!established && st.sstat_state == SCTP_ESTABLISHED) {
		established = 1;
		trace("established", "fwd", -1, 0, "");
	}
	if (!established)
		return;
	struct sctp_paddrinfo *pi = &st.sstat_primary;
	if (!have_paddr || pi->spinfo_cwnd != last_cwnd)
		trace("cwnd", "fwd", -1, pi->spinfo_cwnd, "");
	if (!have_paddr || pi->spinfo_rto != last_rto)
		trace("rto_ms", "fwd", -1, pi->spinfo_rto, "");
	if (!have_paddr || pi->spinfo_srtt != last_srtt)
		trace("srtt_ms", "fwd", -1, pi->spinfo_srtt, "");
	if (!have_paddr || st.sstat_rwnd != last_rwnd)
		trace("peer_rwnd", "fwd", -1, st.sstat_rwnd, "");
	last_cwnd = pi->spinfo_cwnd;
	last_rto = pi->spinfo_rto;
	last_srtt = pi->spinfo_srtt;
	last_rwnd = st.sstat_rwnd;
	have_paddr = 1;
	if (sc.small_count > 0 && !ss_values_set) {
		ss_values_set = 1;
		struct sctp_assoc_value av = {.assoc_id = 0, .assoc_value = 0};
		socklen_t alen = sizeof av;
		int got = usrsctp_getsockopt(client, IPPROTO_SCTP, SCTP_INTERLEAVING_SUPPORTED, &av, &alen);
		trace("idata", "fwd", -1, got < 0 ? -1 : (long long)av.assoc_value, "");
		long prio[2] = {sc.prio0, sc.prio1};
		for (uint16_t sid = 0; sid < 2; sid++) {
			struct sctp_stream_value sv = {.assoc_id = 0, .stream_id = sid,
						       .stream_value = (uint16_t)prio[sid]};
			if (sc.ss >= 0 &&
			    usrsctp_setsockopt(client, IPPROTO_SCTP, SCTP_SS_VALUE, &sv, sizeof sv) < 0 &&
			    sc.ss == SCTP_SS_PRIORITY)
				die("SCTP_SS_VALUE: %s", strerror(errno));
		}
	}
}

/* After each usrsctp call: label its retransmissions (fast or T3) from the statistics,
 * report timer expiries, read what arrived, write what fits, record state changes. */
static void settle(void)
{
	struct sctpstat now;
	usrsctp_get_stat(&now);
	uint32_t t3 = now.sctps_timodata - stats_before.sctps_timodata;
	uint32_t fast = now.sctps_sendfastretrans - stats_before.sctps_sendfastretrans;
	if (t3)
		trace("t3_timeout", "fwd", -1, now.sctps_timodata, "");
	int64_t saved = now_ns;
	for (int i = 0; i < n_pending_rtx; i++) {
		now_ns = pending_rtx_time[i];
		trace("data_tx", "fwd", pending_rtx_tsn[i], pending_rtx_len[i],
		      (uint32_t)i < fast ? "fast" : "t3");
	}
	now_ns = saved;
	if (fast)
		trace("fast_rtx", "fwd", -1, now.sctps_sendfastretrans, "");
	n_pending_rtx = 0;
	stats_before = now;
}

static void pump(void);

/* Ask usrsctp for a stream reset of reset_stream (SCTP_RESET_STREAMS, RFC 6458 8.3.2). */
static void request_reset(struct socket *s, uint16_t flags, const char *dir)
{
	char buf[sizeof(struct sctp_reset_streams) + sizeof(uint16_t)];
	struct sctp_reset_streams *srs = (struct sctp_reset_streams *)buf;
	memset(buf, 0, sizeof buf);
	srs->srs_flags = flags;
	srs->srs_number_streams = 1;
	srs->srs_stream_list[0] = (uint16_t)sc.reset_stream;
	int rc = usrsctp_setsockopt(s, IPPROTO_SCTP, SCTP_RESET_STREAMS, srs, (socklen_t)sizeof buf);
	reset_requested = 1;
	trace("reset_request", dir, -1, rc < 0 ? errno : 0, "");
}

/* A notification read from a socket: report stream reset events. */
static void notification(const char *buf, ssize_t n, const char *dir)
{
	const union sctp_notification *sn = (const union sctp_notification *)buf;
	if (n < (ssize_t)sizeof(struct sctp_stream_reset_event) ||
	    sn->sn_header.sn_type != SCTP_STREAM_RESET_EVENT)
		return;
	const struct sctp_stream_reset_event *e = &sn->sn_strreset_event;
	char kind[16];
	snprintf(kind, sizeof kind, "%d",
		 e->strreset_length > sizeof *e ? e->strreset_stream_list[0] : -1);
	trace("reset_event", dir, -1, e->strreset_flags, kind);
	if (dir[0] == 'f')
		client_reset_seen = 1;
}

/* The client reads nothing but its notifications. */
static void drain_client(void)
{
	static char buf[4096];
	for (;;) {
		struct sctp_rcvinfo rcv;
		socklen_t rlen = sizeof rcv, flen = 0;
		unsigned int infotype = 0;
		int flags = 0;
		ssize_t n = usrsctp_recvv(client, buf, sizeof buf, NULL, &flen, &rcv, &rlen,
					  &infotype, &flags);
		if (n <= 0)
			break;
		if (flags & MSG_NOTIFICATION)
			notification(buf, n, "fwd");
	}
}

static void after_call(void)
{
	settle();
	pump();
	settle();
	poll_state();
}

/* Read everything available at the server, write as much as fits at the client. */
static void pump(void)
{
	if (!server) {
		struct socket *s = usrsctp_accept(listener, NULL, NULL);
		if (s) {
			server = s;
			usrsctp_set_non_blocking(server, 1);
		}
	}
	if (server) {
		static char buf[1 << 16];
		for (;;) {
			struct sctp_rcvinfo rcv;
			socklen_t rlen = sizeof rcv, flen = 0;
			unsigned int infotype = 0;
			int flags = 0;
			ssize_t n = usrsctp_recvv(server, buf, sizeof buf, NULL, &flen, &rcv, &rlen,
						  &infotype, &flags);
			if (n <= 0)
				break;
			if (flags & MSG_NOTIFICATION) {
				if (sc.reset_dir)
					notification(buf, n, "rev");
				continue;
			}
			bytes_delivered += n;
			trace("deliver", "fwd", -1, (long long)n, "");
			if (sc.small_count > 0 && rcv.rcv_sid < 2) {
				/* a message may come in pieces (partial delivery); its id is in its first
				 * 4 bytes, it is complete with MSG_EOR */
				int k = rcv.rcv_sid;
				if (!have_id[k] && n >= 4) {
					memcpy(&cur_id[k], buf, 4);
					have_id[k] = 1;
				}
				if (flags & MSG_EOR) {
					char sid[8];
					snprintf(sid, sizeof sid, "%d", k);
					trace("msg_deliver", "fwd", -1, (long long)cur_id[k], sid);
					have_id[k] = 0;
				}
			}
			if (sc.reset_dir) {
				char sid[8];
				snprintf(sid, sizeof sid, "%u", rcv.rcv_sid);
				trace("deliver_ssn", "fwd", -1, rcv.rcv_ssn, sid);
				if (sc.reset_dir == 2 && !reset_requested &&
				    ++messages_delivered == sc.reset_after)
					request_reset(server, SCTP_STREAM_RESET_INCOMING, "rev");
			}
			if (complete_at < 0 && bytes_delivered >= target_bytes()) {
				complete_at = now_ns;
				trace("complete", "fwd", -1, bytes_delivered, "");
			}
		}
	}
	if (sc.reset_dir && established)
		drain_client();
	if (established && sc.small_count > 0) {
		/* small messages on stream 1 when due, then the bulk on stream 0 */
		static char small[65536];
		while (small_written < sc.small_count &&
		       now_ns >= (sc.small_start_ms + small_written * sc.small_interval_ms) * 1000000LL) {
			uint32_t id = 1000000u + (uint32_t)small_written;
			memcpy(small, &id, 4);
			struct sctp_sndinfo snd;
			memset(&snd, 0, sizeof snd);
			snd.snd_sid = 1;
			ssize_t n = usrsctp_sendv(client, small, (size_t)sc.small_size, NULL, 0, &snd,
						  sizeof snd, SCTP_SENDV_SNDINFO, 0);
			if (n < 0) {
				if (errno == EWOULDBLOCK || errno == EAGAIN || errno == ENOBUFS)
					break;
				die("usrsctp_sendv: %s", strerror(errno));
			}
			trace("msg_write", "fwd", -1, (long long)id, "1");
			small_written++;
		}
	}
	if (established) {
		static char msg[1 << 20];
		while (bytes_written < sc.total_bytes) {
			/* reset_dir 2: the rest waits for the reset the server asks for. */
			if (sc.reset_dir == 2 && messages_written >= sc.reset_after && !client_reset_seen)
				break;
			long long size = sc.message_size;
			if (size > sc.total_bytes - bytes_written)
				size = sc.total_bytes - bytes_written;
			struct sctp_sndinfo snd;
			memset(&snd, 0, sizeof snd);
			snd.snd_sid = (uint16_t)(sc.small_count > 0 ? 0 : messages_written % sc.streams);
			uint32_t id = (uint32_t)messages_written;
			if (sc.small_count > 0 && size >= 4)
				memcpy(msg, &id, 4);
			ssize_t n = usrsctp_sendv(client, msg, (size_t)size, NULL, 0, &snd, sizeof snd,
						  SCTP_SENDV_SNDINFO, 0);
			if (n < 0) {
				if (errno == EWOULDBLOCK || errno == EAGAIN || errno == ENOBUFS)
					break;
				die("usrsctp_sendv: %s", strerror(errno));
			}
			bytes_written += n;
			messages_written++;
			if (sc.small_count > 0)
				trace("msg_write", "fwd", -1, (long long)id, "0");
			if (sc.reset_dir == 1 && !reset_requested && messages_written == sc.reset_after)
				request_reset(client, SCTP_STREAM_RESET_OUTGOING, "fwd");
		}
	}
}

static void debug_printf(const char *format, ...)
{
	(void)format;
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			print_help();
			return 0;
		}
		parse_arg(argv[i]);
	}
	if (sc.rto_min_ms > sc.rto_max_ms)
		die("rto_min_ms (%ld) > rto_max_ms (%ld)", sc.rto_min_ms, sc.rto_max_ms);
	if (sc.rto_initial_ms < sc.rto_min_ms || sc.rto_initial_ms > sc.rto_max_ms)
		die("rto_initial_ms (%ld) outside [rto_min_ms, rto_max_ms]", sc.rto_initial_ms);
	for (int i = 0; i < sc.n_drop_tsns; i++)
		tsn_drops_left[i] = sc.drop_tsn_times[i];
	rng_state = sc.seed;

	printf("time_ns,event,dir,tsn,value,kind\n");
	usrsctp_init_nothreads(0, conn_output, debug_printf);
	usrsctp_sysctl_set_sctp_ecn_enable(0);
	usrsctp_sysctl_set_sctp_asconf_enable(0);
	usrsctp_sysctl_set_sctp_auth_enable(0);
	usrsctp_sysctl_set_sctp_reconfig_enable(sc.reset_dir ? 1 : 0);
	usrsctp_sysctl_set_sctp_nrsack_enable(0);
	usrsctp_sysctl_set_sctp_pktdrop_enable(0);
	usrsctp_sysctl_set_sctp_blackhole(2); /* no ABORT for the closed client port etc. */
	usrsctp_sysctl_set_sctp_rto_initial_default((uint32_t)sc.rto_initial_ms);
	usrsctp_sysctl_set_sctp_rto_min_default((uint32_t)sc.rto_min_ms);
	usrsctp_sysctl_set_sctp_rto_max_default((uint32_t)sc.rto_max_ms);
	usrsctp_sysctl_set_sctp_init_rto_max_default((uint32_t)sc.rto_max_ms);
	usrsctp_sysctl_set_sctp_delayed_sack_time_default((uint32_t)sc.sack_delay_ms);
	usrsctp_sysctl_set_sctp_sack_freq_default((uint32_t)sc.sack_freq);
	usrsctp_sysctl_set_sctp_max_burst_default((uint32_t)sc.max_burst);
	/* Never give up an association in a validation run (ns-3: the same limits). */
	usrsctp_sysctl_set_sctp_assoc_rtx_max_default(100);
	usrsctp_sysctl_set_sctp_path_rtx_max_default(100);
	if (sc.initial_cwnd_mtus > 0)
		usrsctp_sysctl_set_sctp_initial_cwnd((uint32_t)sc.initial_cwnd_mtus);
	if (sc.abc_l >= 0)
		usrsctp_sysctl_set_sctp_L2_abc_variable((uint32_t)sc.abc_l);
	if (sc.peer_chunk_oh >= 0)
		usrsctp_sysctl_set_sctp_peer_chunk_oh((uint32_t)sc.peer_chunk_oh);
	if (sc.cwnd_maxburst >= 0)
		usrsctp_sysctl_set_sctp_use_cwnd_based_maxburst((uint32_t)sc.cwnd_maxburst);
	usrsctp_register_address(&ep_client);
	usrsctp_register_address(&ep_server);

	listener = usrsctp_socket(AF_CONN, SOCK_STREAM, IPPROTO_SCTP, NULL, NULL, 0, NULL);
	client = usrsctp_socket(AF_CONN, SOCK_STREAM, IPPROTO_SCTP, NULL, NULL, 0, NULL);
	if (!listener || !client)
		die("usrsctp_socket: %s", strerror(errno));
	set_sockopts(listener);
	set_sockopts(client);
	struct sockaddr_conn a;
	conn_addr(&a, &ep_server, 5002);
	if (usrsctp_bind(listener, (struct sockaddr *)&a, sizeof a) < 0)
		die("bind: %s", strerror(errno));
	if (usrsctp_listen(listener, 1) < 0)
		die("listen: %s", strerror(errno));
	conn_addr(&a, &ep_client, 5001);
	if (usrsctp_bind(client, (struct sockaddr *)&a, sizeof a) < 0)
		die("bind: %s", strerror(errno));
	usrsctp_get_stat(&stats_before);
	conn_addr(&a, &ep_client, 5002);
	if (usrsctp_connect(client, (struct sockaddr *)&a, sizeof a) < 0 && errno != EINPROGRESS)
		die("connect: %s", strerror(errno));
	after_call();

	const int64_t stop = (int64_t)(sc.stop_s * 1e9);
	int64_t next_tick = 1000000;
	while (complete_at < 0 && now_ns < stop) {
		if (heap_n && heap[0].at < next_tick) {
			struct pkt p = heap_pop();
			now_ns = p.at;
			const char *dname = p.dir ? "rev" : "fwd";
			char kinds[256];
			int dropped = 0;
			long long first;
			if (p.dir == 0) {
				uint64_t n = ++fwd_packets;
				drop_by_tsn = 0;
				first = describe(p.data, p.len, kinds, sizeof kinds, on_data_arriving);
				const char *why = NULL;
				for (int i = 0; i < sc.n_drop_packets && !why; i++)
					if ((uint64_t)sc.drop_packets[i] == n)
						why = "list";
				if (!why && drop_by_tsn)
					why = "tsn";
				if (!why && first >= 0 && random_loss((uint64_t)first, arrivals_of((uint64_t)first)))
					why = "random";
				if (why) {
					trace("pkt_drop", dname, first, (long long)(p.len + FRAME_OVERHEAD),
					      why);
					dropped = 1;
				}
			} else {
				first = describe(p.data, p.len, kinds, sizeof kinds, NULL);
			}
			if (!dropped) {
				trace("pkt_rx", dname, first, (long long)(p.len + FRAME_OVERHEAD), kinds);
				usrsctp_conninput(p.dir ? (void *)&ep_client : (void *)&ep_server, p.data,
						  p.len, 0);
			}
			free(p.data);
			after_call();
		} else {
			now_ns = next_tick;
			next_tick += 1000000;
			usrsctp_handle_timers(1);
			after_call();
		}
	}
	trace("end", "fwd", -1, bytes_delivered, complete_at >= 0 ? "ok" : "timeout");
	fflush(stdout);
	/* Exit without usrsctp_finish(): the associations are still up. */
	_exit(complete_at >= 0 ? 0 : 3);
}
