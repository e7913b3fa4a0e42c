/* The physical floor: what reading gpsd's bytes and writing them costs with no parser at all. A
   plain socket client without libgps or stdio: it connects, asks as locate does, and copies
   gpsd's lines to stdout unparsed. `once` sends WATCH and ?POLL; in one write and writes the
   POLL line; `stream COUNT` watches and writes the first COUNT TPV lines. A benchmark peer for
   Scripts/bench, not product code.
   Usage: raw-client HOST PORT once | raw-client HOST PORT stream COUNT */
#include <netdb.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int connect_to(const char *host, const char *port) {
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM}, *found;
    if (getaddrinfo(host, port, &hints, &found) != 0) return -1;
    int fd = socket(found->ai_family, found->ai_socktype, 0);
    if (fd >= 0 && connect(fd, found->ai_addr, found->ai_addrlen) != 0) {
        close(fd);
        fd = -1;
    }
    freeaddrinfo(found);
    return fd;
}

int main(int argc, char **argv) {
    int stream = argc == 5 && strcmp(argv[3], "stream") == 0;
    if (!(stream || (argc == 4 && strcmp(argv[3], "once") == 0))) return 64;
    long wanted = stream ? atol(argv[4]) : 1, written = 0;
    int fd = connect_to(argv[1], argv[2]);
    if (fd < 0) return 69;
    const char *ask = stream ? "?WATCH={\"enable\":true,\"json\":true};\n"
                             : "?WATCH={\"enable\":true,\"json\":true};?POLL;\n";
    if (write(fd, ask, strlen(ask)) < 0) return 69;
    const char *want = stream ? "{\"class\":\"TPV\"" : "{\"class\":\"POLL\"";
    size_t want_length = strlen(want);
    static char buffer[1 << 16];
    size_t used = 0;
    while (written < wanted) {
        ssize_t count = read(fd, buffer + used, sizeof buffer - used);
        if (count <= 0) break;
        used += (size_t)count;
        char *line = buffer, *end;
        while (written < wanted && (end = memchr(line, '\n', buffer + used - line)) != NULL) {
            if ((size_t)(end - line) >= want_length && memcmp(line, want, want_length) == 0) {
                if (write(1, line, (size_t)(end + 1 - line)) < 0) return 74;
                written++;
            }
            line = end + 1;
        }
        used = (size_t)(buffer + used - line);
        memmove(buffer, line, used);
        if (used == sizeof buffer) used = 0;
    }
    close(fd);
    return written == wanted ? 0 : 75;
}
