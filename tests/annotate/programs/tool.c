/* The other program of the tree: its own struct http (see web.c). */
struct http {
	long sent;
	long window;
	int mode;
};

struct http T;

void send1(void) { __atomic_fetch_add(&T.sent, 1, __ATOMIC_RELAXED); }
void send2(void) { __atomic_fetch_add(&T.sent, 2, __ATOMIC_RELAXED); }
long win1(void) { return T.window + T.mode; }
long win2(void) { return T.window * 2; }
long win3(void) { return T.window - 1; }

int main(void)
{
	send1();
	send2();
	return (int)(win1() + win2() + win3());
}
