/* No attributes: classes come from the sidecar files side1.ann, side2.ann */
struct side {
	unsigned long count;
	unsigned long limit;
};
struct other {
	unsigned long a;
	unsigned long b;
};
struct side s;
struct other o;
