// errdex serve: the site and the JSON API over the store.
#include <cstdio>
#include <iostream>

#include "cli/commands.h"
#include "cli/store_url.h"
#include "web/server.h"

namespace errdex::cli {

int run_serve(const ServeArgs& a) {
  auto listen = web::parse_listen(a.listen);
  if (!listen) {
    std::cerr << "errdex serve: " << listen.error() << "\n";
    return 2;
  }
  // A missing database is an error here, not an empty site.
  if (auto st = open_store_for_read(a.db); !st) {
    std::cerr << "errdex serve: " << st.error() << "\n";
    return 2;
  }
  web::ServerOptions o;
  o.db = a.db;
  o.host = listen->first;
  o.port = listen->second;
  o.threads = a.threads;
  o.access_log = a.access_log;
  o.max_body_bytes = a.max_body_bytes;
  if (!a.report_url.empty()) o.app.report_url = a.report_url;
  auto server = web::Server::start(o);
  if (!server) {
    std::cerr << "errdex serve: " << server.error() << "\n";
    return 2;
  }
  std::string host = o.host.find(':') != std::string::npos ? "[" + o.host + "]" : o.host;
  std::printf("errdex: %zu records, match engine: %s\n", (*server)->records(), (*server)->match_engine().c_str());
  std::printf("errdex: serving http://%s:%u/\n", host.c_str(), static_cast<unsigned>((*server)->port()));
  std::fflush(stdout);
  (*server)->wait();
  std::printf("errdex: stopped\n");
  return 0;
}

}  // namespace errdex::cli
