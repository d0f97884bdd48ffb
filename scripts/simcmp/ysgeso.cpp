// Times ysgeso's simulator (action() of its qualifier-final codevsreborn.cpp, fetched and built
// outside the repository by scripts/simcmp.sh, with -I that folder) on one standard workload of
// data/bench: every position's 36 placements (x 0..8, r 0..3), each from a fresh copy of the
// position (action() makes it), chain resolved and the death check done, as `codevs-reborn bench
// sim` times ours. One thread, median pass.
// Usage: ysgeso WORKLOAD.txt MIN_MS. Prints `placements links dead ns_per_placement passes`.
#define main ysgeso_main
#include "codevsreborn.cpp"
#undef main
#include <algorithm>
#include <chrono>
#include <fstream>

// Its PlayerInfo holds 32-byte-aligned BitBoards, which a C++11 std::vector would not align.
static PlayerInfo positions[MAX_TURN];

int main(int argc, char **argv) {
	if (argc != 3) {
		fprintf(stderr, "usage: ysgeso WORKLOAD.txt MIN_MS\n");
		return 2;
	}
	double min_ms = atof(argv[2]);
	init();
	std::ifstream in(argv[1]);
	int count = 0;
	while (count < MAX_TURN) {
		// 19 lines a position: 16 field rows top first, the pack's two rows, the check's `x r`.
		int rows[16][10], pack[2][2], ax, ar;
		bool read = true;
		for (int y = 0; y < 16; y++)
			for (int x = 0; x < 10; x++) read = read && (in >> rows[y][x]);
		if (!read) break;
		for (int y = 0; y < 2; y++)
			for (int x = 0; x < 2; x++) in >> pack[y][x];
		in >> ax >> ar;
		// The pack as its read_start_info stores turn `count`'s: [r][x][y], y = 1 the top row,
		// rotated clockwise, then each column's block settled to the bottom.
		int (*b)[2][2] = ginfo.blockinfo[count];
		for (int x = 0; x < 2; x++) {
			b[0][x][1] = pack[0][x];
			b[0][x][0] = pack[1][x];
		}
		for (int r = 1; r < 4; r++) {
			b[r][0][0] = b[r - 1][1][0];
			b[r][0][1] = b[r - 1][0][0];
			b[r][1][1] = b[r - 1][0][1];
			b[r][1][0] = b[r - 1][1][1];
		}
		for (int r = 0; r < 4; r++)
			for (int x = 0; x < 2; x++)
				if (b[r][x][0] == 0) {
					b[r][x][0] = b[r][x][1];
					b[r][x][1] = 0;
				}
		// The field as its read_turn_info stores it, no garbage pending.
		PlayerInfo &p = positions[count];
		p.init(count);
		p.ojama[0] = p.ojama[1] = 0;
		p.skill[0] = p.skill[1] = 0;
		p.ojamadropped = false;
		for (int y = 15; y >= 0; y--)
			for (int x = 0; x < 10; x++) {
				int f = rows[15 - y][x];
				if (f == 11) f = 10;
				if (f > 0) {
					p.setbb(0, x, y, false);
					p.setbb(f, x, y, false);
					if (f < 10) p.bb[f + 10] |= around_bb_table[x][y];
				}
			}
		for (int x = 0; x < 10; x++) p.blocknum[x] = popcnt(p.bb[0].getx(x));
		count++;
	}
	long long placements = 0, links = 0, dead = 0;
	auto pass = [&](bool tally) {
		PlayerInfo out;
		for (int i = 0; i < count; i++)
			for (int x = 0; x < 9; x++)
				for (int r = 0; r < 4; r++) {
					positions[i].x = x;
					positions[i].r = r;
					bool alive = action(positions[i], out, false);
					asm volatile("" : : "r"(&out) : "memory");
					if (tally) {
						placements++;
						links += out.chain;
						dead += !alive;
					}
				}
	};
	pass(true);
	std::vector<double> times;
	auto start = std::chrono::steady_clock::now();
	auto ms = [](std::chrono::steady_clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); };
	while (times.size() < 5 || ms(std::chrono::steady_clock::now() - start) < min_ms) {
		auto t = std::chrono::steady_clock::now();
		pass(false);
		times.push_back(ms(std::chrono::steady_clock::now() - t) / 1e3);
	}
	std::sort(times.begin(), times.end());
	printf("%lld %lld %lld %.1f %zu\n", placements, links, dead, times[times.size() / 2] * 1e9 / placements, times.size());
}
