#pragma once
// The CPU backend: OpenMP threads own contiguous ranges of the neurons of this rank's domain
// (the whole network for one rank; lowering/domain_decomposition.hpp for more). The engine
// advances in epochs of at most the shortest delay D (docs/engine.md, "Epochs and ranks"):
// every thread updates its neurons over the epoch's steps, listing their spikes per step; then
// the ranks exchange the epoch's spikes (distributed_context::gather_spikes), and every thread
// delivers them, its rank's and the others', to the synapses whose targets it owns, adding
// fixed-point weights into a ring buffer indexed by arrival step and listing the neurons it
// touched, so that the update of the arrival step visits only those (see lif_population.hpp).
// No spike of an epoch arrives within it, so one barrier per epoch orders everything (two
// with more than one rank, around the exchange); with one thread there is none. A thread only
// ever writes and reads the ring entries of its own neurons. Zero-delay projections deliver in
// the step of the spike: populations are updated in an order where their sources come first
// (lowering/update_order.hpp), each population that sends through one is followed by a
// barrier and that delivery (see update_range), and no rank boundary cuts a chain of them.
// Integer sums make the result independent of the order of additions, so rasters are
// bit-identical for any thread and rank count (docs/architecture.md, "Determinism"). Uniform
// one-step projections onto LIF populations and the conductance-input ODE populations skip the
// ring and add straight into the synaptic currents or conductances (cpu_engine_direct.cpp), in
// the order of the source neurons.

#include <algorithm>
#include <barrier>
#include <cstdint>
#include <memory>
#include <utility>
#include <variant>
#include <vector>

#include "backends/cpu/analog_population.hpp"
#include "backends/cpu/cpu_isa.hpp"
#include "backends/cpu/discrete_population.hpp"
#include "backends/cpu/lif_population.hpp"
#include "backends/cpu/ode_population.hpp"
#include "backends/cpu/plastic_table.hpp"
#include "backends/cpu/population_factory.hpp"
#include "backends/cpu/source_population.hpp"
#include "backends/cpu/structured/structured_projection.hpp"
#include "backends/cpu/synapse_table.hpp"
#include "backends/cpu/thread_team.hpp"
#include "backends/engine.hpp"
#include "lowering/lowered_network.hpp"

#include <volley/snn/distributed_context.hpp>

namespace volley::snn::detail {

class cpu_engine final : public engine {
public:
    cpu_engine(const network& net, int threads, const simulation_options& options, distributed_context dist);

    void add_spike_recorder(std::shared_ptr<spike_data> data, std::vector<std::uint8_t> mask) override;
    void add_state_recorder(std::shared_ptr<state_data> data, population_index pop) override;
    void remove_spike_recorder(const spike_data* data) override;
    void remove_state_recorder(const state_data* data) override;
    std::int64_t run(std::int64_t steps, const progress_callback& progress, std::int64_t progress_interval) override;
    int ranks() const override { return dist_.size(); }
    std::int64_t current_step() const override { return step_; }
    void reset(const network& net) override;
    void set_input(population_index pop, const population_input& input) override;
    void refresh_inputs(const network& net, population_index pop) override;
    simulation_stats stats() const override;
    projection_weights weights(std::size_t projection) const override;
    void visit_state(state_archive& a) override;  // cpu_engine_state.cpp
    /// "cpu"; with more than one rank also the rank, as a checkpoint is of one rank's domain.
    std::string backend_name() const override {
        return dist_.size() == 1 ? "cpu"
                                 : "cpu, " + dist_.name() + " rank " + std::to_string(dist_.id()) + " of " +
                                       std::to_string(dist_.size());
    }
    int threads() const override { return threads_; }

private:
    struct spike_sink {
        std::shared_ptr<spike_data> data;
        std::vector<std::uint8_t> mask;
    };
    struct state_sink {
        std::shared_ptr<state_data> data;
        std::uint32_t pop;
        std::int64_t start;
    };
    struct alignas(64) thread_counters {
        std::uint64_t events = 0;
    };

    void build_synapses(const network& net, const simulation_options& options, lowered_network& low);
    /// Thread t's neurons of population p, as local indices [begin, end); {0, 0} when none. For a
    /// replicated source, its share of the neurons this rank draws (replicated_sources.hpp).
    std::pair<std::uint32_t, std::uint32_t> local_range(int t, std::uint32_t p) const {
        if (sources_.replicated[p]) {
            const auto [g0, g1] = sources_.generate[p];
            const std::uint64_t span = g1 - g0, T = static_cast<std::uint64_t>(threads_);
            return {static_cast<std::uint32_t>(g0 + span * static_cast<std::uint64_t>(t) / T),
                    static_cast<std::uint32_t>(g0 + span * static_cast<std::uint64_t>(t + 1) / T)};
        }
        const std::uint32_t b = std::max(lo_[t], first_[p]), e = std::min(lo_[t + 1], first_[p + 1]);
        if (b >= e) return {0, 0};
        return {b - first_[p], e - first_[p]};
    }
    /// Spikes of population p found by thread t at step s (local indices, ascending).
    std::vector<std::uint32_t>& spikes_of(std::int64_t s, int t, std::uint32_t p) {
        return spikes_[static_cast<std::size_t>(s & spike_mask_)][static_cast<std::size_t>(t) * (n_pops_ + list_gap) + p];
    }
    /// Calls f(list) for each list of step-s spikes of population sp, in the order of the
    /// neurons: the ranks before this one, this rank's threads, the ranks after it. Each
    /// delivery reads them so, whatever the partition.
    template <class F>
    void for_each_spike_list(std::int64_t s, std::uint32_t sp, F&& f) {
        const auto& remote = remote_[static_cast<std::size_t>(s & spike_mask_)][sp];
        f(std::as_const(remote.before));
        for (int u = 0; u < threads_; ++u) f(std::as_const(spikes_of(s, u, sp)));
        f(std::as_const(remote.after));
    }
    /// Calls f(row, weights) for the synapse row of every step-s spike of population sp through
    /// a table with weights per synapse (for_each_spike_list's order); returns the events.
    template <class F>
    std::uint64_t for_each_weighted_row(std::int64_t s, std::uint32_t sp, const synapse_table& table, F&& f) {
        std::uint64_t events = 0;
        for_each_spike_list(s, sp, [&](const std::vector<std::uint32_t>& fired) {
            for (const std::uint32_t g : fired) {
                const auto row = table.row(g);
                events += row.size();
                f(row, table.row_weights(g));
            }
        });
        return events;
    }
    /// The ring cells (receptor 0, then 1) of global neuron `id` in ring slot `slot`. The ring
    /// holds this rank's domain only; for a population that begins before the domain the
    /// pointer to its first neuron lies before the slot's cells, and only the cells of the
    /// domain's neurons are read or written through it.
    std::int64_t* ring_at(std::int64_t slot, std::int64_t id) {
        return ring_.data() + (slot * std::int64_t{domain_hi_ - domain_lo_} + id - std::int64_t{domain_lo_}) * 2;
    }
    /// The ring cell of thread t's first neuron for `receptor` in ring slot `slot`.
    std::int64_t* ring_cells(int t, std::int64_t slot, std::uint32_t receptor) { return ring_at(slot, lo_[t]) + receptor; }
    /// Hands the spikes of steps [a, b) of this rank's neurons to the other ranks and files
    /// theirs (remote_); clears the lists of the steps of the next epoch, which zero-delay
    /// deliveries read before any exchange (cpu_engine_exchange.cpp).
    void exchange(std::int64_t a, std::int64_t b);
    /// The epoch length (collective): at most the shortest delay of any projection but the
    /// zero-delay ones over every rank, the longest delay and max_epoch_steps; 1 for one
    /// thread on one rank (cpu_engine.cpp).
    std::int64_t epoch_steps(std::uint32_t min_delay, std::uint32_t max_delay) const;
    /// Neurons of population p (offsets from thread t's first neuron) with input in ring `slot`.
    std::vector<std::uint32_t>& touched(int t, std::uint32_t p, std::int64_t slot) {
        return touched_[static_cast<std::size_t>(t) * (n_pops_ * slots_ + list_gap) + std::size_t{p} * slots_ +
                        static_cast<std::size_t>(slot)];
    }
    /// True for populations that add only the input of the neurons on the touched list (LIF and
    /// ODE); the others read every ring cell of their neurons.
    bool follows_touched_list(std::uint32_t p) const { return input_of(p) == kernel_input::touched_list; }
    kernel_input input_of(std::uint32_t p) const {
        return std::visit([](const auto& k) { return k.input(); }, pops_[p]);
    }
    /// Updates thread t's neurons of every population over step s, in order_, delivering the
    /// spikes of zero-delay projections after their source (behind `sync` when not null).
    void update_range(int t, std::int64_t s, spin_barrier* sync);
    void update_population(int t, std::int64_t s, std::uint32_t p);
    /// Delivers the step-s spikes of the projections that take one step or more.
    void deliver(int t, std::int64_t s);
    /// Delivers the step-s spikes of population sp through its tables and convolutions onto
    /// thread t's targets: the zero-delay ones (`now`) or the others.
    std::uint64_t deliver_from(int t, std::int64_t s, std::uint32_t sp, bool now);
    // Delivery strategies (cpu_engine_delivery.cpp).
    /// What a delivery strategy sees of one synapse table when the engine is built.
    struct delivery_case {
        const synapse_table& table;
        bool zero_delay;            ///< a zero-delay projection's table (held with delay 1)
        bool analog_source;         ///< its source population sends analog values
        bool follows_touched_list;  ///< its target adds only the input of the neurons listed
        bool input_after_update;    ///< its target (LIF or ODE) takes input after its update
        bool direct_pair;           ///< the lowering lets this pair of populations go direct (direct_inputs.hpp)
    };
    /// Delivers the step-s spikes of population sp through `table` onto thread t's targets in
    /// population tp, with the delays counted from step `sent`; returns the synaptic events.
    using deliver_fn = std::uint64_t (cpu_engine::*)(int t, std::int64_t s, std::int64_t sent, std::uint32_t sp,
                                                     std::uint32_t tp, const synapse_table& table);
    struct delivery_strategy {
        const char* name;
        bool (*compatible)(const delivery_case&);
        double cost;         ///< estimated cost of a synaptic event: the cheapest compatible one wins
        deliver_fn deliver;  ///< nullptr for "direct", which the target's update delivers
    };
    /// Every strategy, registered once.
    static std::span<const delivery_strategy> delivery_strategies();
    /// Chooses the strategy of every table (delivery_) and marks the direct ones (direct_table_,
    /// direct_).
    void choose_deliveries(const std::vector<std::uint8_t>& direct);
    std::uint64_t deliver_uniform(int t, std::int64_t s, std::int64_t sent, std::uint32_t sp, std::uint32_t tp,
                                  const synapse_table& table);
    std::uint64_t deliver_one_route(int t, std::int64_t s, std::int64_t sent, std::uint32_t sp, std::uint32_t tp,
                                    const synapse_table& table);
    std::uint64_t deliver_shared(int t, std::int64_t s, std::int64_t sent, std::uint32_t sp, std::uint32_t tp,
                                 const synapse_table& table);
    std::uint64_t deliver_general(int t, std::int64_t s, std::int64_t sent, std::uint32_t sp, std::uint32_t tp,
                                  const synapse_table& table);
    /// Delivers the step-s spikes of population sp through thread t's structured projections
    /// from it (the zero-delay ones when `now`).
    std::uint64_t deliver_structured(int t, std::int64_t s, std::uint32_t sp, bool now);
    std::uint64_t deliver_plastic(int t, std::int64_t s, plastic_table& table);
    // Direct delivery (cpu_engine_direct.cpp).
    /// False when every input is delivered directly (and no population reads every ring
    /// cell but those whose input all comes direct): then the ring buffer is never allocated.
    bool uses_ring() const;
    /// True when population p has direct input and nothing that delivers into its ring cells:
    /// it steps without its ring (ode_population::step_input).
    bool all_input_direct(std::uint32_t p) const { return direct_[p] && !ring_input_[p]; }
    bool is_direct(int t, std::uint32_t sp, std::uint32_t tp) const {
        return direct_table_[static_cast<std::size_t>(t) * n_pops_ * n_pops_ + std::size_t{sp} * n_pops_ + tp] != 0;
    }
    /// Calls row_fn(row) for the synapse row of every step-`sent` spike of population sp
    /// through `table`, in a fixed order (threads ascending, then their spike lists), with
    /// rows asked for ahead. Returns the synaptic events.
    template <class F>
    std::uint64_t for_each_row(std::int64_t sent, std::uint32_t sp, const synapse_table& table, F&& row_fn) {
        // The rows lie scattered over a table larger than the core's caches: ask for where a
        // row starts, then a few spikes later for the row, while this one is used. Spikes
        // ahead: prefetching the row alone took 3.5 against 6.3 ns an event for CUBA's rows at
        // N = 40,000, measured alone; its start as well, 19 against 10-13 cycles an event at 400,000.
        constexpr std::size_t row_ahead = 4, row_start_ahead = 16;
        std::uint64_t events = 0;
        for_each_spike_list(sent, sp, [&](const std::vector<std::uint32_t>& fired) {
            for (std::size_t k = 0; k < fired.size(); ++k) {
                if (k + row_start_ahead < fired.size()) table.prefetch_row_start(fired[k + row_start_ahead]);
                if (k + row_ahead < fired.size()) table.prefetch_row(fired[k + row_ahead]);
                const auto row = table.row(fired[k]);
                events += row.size();
                row_fn(row);
            }
        });
        return events;
    }
    /// The weight a step-`sent` spike adds through direct table `table` onto population tp
    /// (in mV, times the scale of the step its input arrives at): one expression for
    /// deliver_direct and sort_direct, whose results must agree bit for bit.
    double direct_weight(const synapse_table& table, std::uint32_t tp, const lif_population& lif,
                         std::int64_t sent) const;
    /// The same for an ODE population (no gain: its state is not rescaled).
    double direct_weight(const synapse_table& table, std::uint32_t tp, const ode_population&, std::int64_t) const {
        return table.weight() * scale_[tp * 2 + table.receptor()];
    }
    /// Adds the step-`sent` spikes of every direct table onto thread t's neurons of population
    /// tp (lif_population or ode_population), straight into their synaptic state; called after
    /// tp's update of step sent + 1, where that input arrives.
    template <class Population>
    void deliver_direct(int t, std::int64_t sent, std::uint32_t tp, Population& pop);
    /// The same input as deliver_direct, sorted by chunk of thread t's neurons [lb, le) of tp
    /// (lif_population::direct_route), for a pair of steps to add between its two steps,
    /// chunk by chunk (cpu_engine_pairs.cpp). Returns the routes. Where the input can be added
    /// all at once the direct add is faster: it costs one read-modify-write an event, the sort a
    /// write and a read more.
    std::span<const lif_population::direct_route> sort_direct(int t, std::int64_t sent, std::uint32_t tp,
                                                              const lif_population& lif, std::uint32_t lb,
                                                              std::uint32_t le);
    // Steps in pairs (cpu_engine_pairs.cpp).
    /// True when run() may take the steps two at a time (lif_population::update_pair): every
    /// population steps in pairs, every projection is delivered directly, nothing is sampled,
    /// the simulation is not distributed over ranks,
    /// and each thread's range is too large for its core's cache (below that the pairs gain
    /// nothing). simulation_options::step_pairs turns it off, or drops the size condition.
    bool pairs_allowed(const progress_callback& progress, std::int64_t interval) const;
    /// Prepares the input of thread t's pair of steps s, s + 1: adds the spikes of step s - 2,
    /// which the previous pair could not (`first`: the first pair of a run, where single steps
    /// added them), and sorts those of step s - 1 by chunk. Reads every thread's spikes,
    /// which update_pair overwrites: with several threads a barrier goes between.
    void prepare_pair(int t, std::int64_t s, bool first);
    /// Thread t's neurons over steps s and s + 1, with prepare_pair's input.
    void update_pair(int t, std::int64_t s);
    /// Records the spikes of steps s and s + 1, and moves step_ past them.
    void record_pair(std::int64_t s);
    /// Adds the input the last pair (s - 2, s - 1) deferred: the spikes of step s - 2.
    void finish_pairs(int t, std::int64_t s);
    /// Delivers the step-s spikes of population `sp` through a one-route `table` whose rows
    /// share their targets (synapse_table::shared_targets) into `cells`, the slot's cell of
    /// thread t's first neuron for the table's receptor: the spikes' rows of weights are summed
    /// into one row, which is then added into the targets (cpu_engine_shared_targets.cpp).
    /// Returns the synaptic events.
    std::uint64_t deliver_shared_targets(int t, std::int64_t s, std::uint32_t sp, const synapse_table& table,
                                         std::int64_t* cells);
    /// Delivers the step-s values of analog source population `sp` through `table`, with the
    /// delays counted from step `sent` (cpu_engine_runtime.cpp).
    std::uint64_t deliver_analog(int t, std::int64_t s, std::int64_t sent, std::uint32_t sp, std::uint32_t tp,
                                 const synapse_table& table);
    /// The run-time state of population p as built from `net`.
    population_state make_population(const network& net, std::uint32_t p) const;
    void record_spikes(std::int64_t s);
    void sample_state(const state_sink& sink);
    /// Takes the state samples due after step_.
    void sample_due();

    /// The longest epoch: each adds an epoch's slots to the ring and two epochs' spike lists,
    /// and past a few dozen steps the barriers it saves cost nothing anyway.
    static constexpr std::int64_t max_epoch_steps = 32;
    /// Unused lists between one thread's spike (touched) lists and the next thread's: 3 vector
    /// headers are 72 bytes, so no two threads write headers in one cache line. (Without the gap
    /// every push_back of one thread invalidated a line the other was writing: CUBA at
    /// N = 40,000 on 2 threads took 1.4 times as long as on 1.)
    static constexpr std::size_t list_gap = 3;
    int threads_;
    distributed_context dist_;
    std::uint32_t domain_lo_ = 0, domain_hi_ = 0;  ///< this rank owns global ids [domain_lo_, domain_hi_)
    replicated_sources sources_;                   ///< sources drawn here, not exchanged (ranks > 1)
    std::int64_t epoch_ = 1;  ///< steps an epoch, <= the shortest delay
    cpu_isa isa_;               ///< the kernels' instruction set (options.max_isa and the CPU)
    step_pairing step_pairs_;   ///< options.step_pairs
    std::uint32_t n_ = 0, n_pops_ = 0;
    std::vector<std::uint32_t> first_;  ///< global id of each population's neuron 0, plus n_
    std::vector<population_state> pops_;
    double dt_ms_ = 0;
    std::uint64_t seed_ = 0;
    std::vector<std::uint32_t> lo_;                   ///< thread t owns [lo_[t], lo_[t+1])
    /// [thread][k]: k = source population * n_pops_ + target population for the projections
    /// that take one step or more; n_pops_² + the same for the zero-delay ones, which are
    /// stored with delay 1 and delivered as if sent a step earlier.
    std::vector<std::vector<synapse_table>> tables_;
    std::vector<std::vector<deliver_fn>> delivery_;  ///< [thread][as tables_]: the chosen strategy, or nullptr
    std::vector<std::uint32_t> order_;     ///< population update order (zero-delay sources first)
    std::vector<std::uint8_t> sends_now_;  ///< [population]: source of a zero-delay projection
    std::vector<std::uint8_t> inhibited_;  ///< [population]: some projection reaches its inhibitory receptor
    std::vector<std::uint8_t> fed_;        ///< [population]: some projection reaches it
    /// [thread][source * n_pops_ + target]: a uniform table with a delay of one step onto a
    /// LIF or ODE population, delivered with no ring buffer (deliver_direct).
    std::vector<std::uint8_t> direct_table_;
    std::vector<std::uint8_t> direct_;  ///< [population]: the target of some direct table
    /// [population]: some table, convolution, gate or plastic table delivers into its ring cells
    /// (set with the strategies, choose_deliveries).
    std::vector<std::uint8_t> ring_input_;
    /// [thread * n_pops_ + target population]: sort_direct's routes and their lists.
    struct direct_box {
        std::vector<lif_population::direct_route> routes;
        std::vector<std::vector<std::uint32_t>> lists;  ///< [route * chunks + chunk]
    };
    std::vector<direct_box> direct_boxes_;
    std::vector<std::vector<plastic_table>> plastic_;  ///< [thread][plastic projection, in order]
    /// [thread]: the structured projections (convolutions, gates: no tables), in projection order.
    std::vector<std::vector<structured_state>> structured_;
    /// [thread][population]: the index in structured_[thread] of the zero-delay convolution that
    /// is the population's only input and that its step reads in place, or -1.
    std::vector<std::vector<std::int32_t>> in_place_conv_;
    void find_in_place_convs(const network& net);  // cpu_engine_build.cpp
    std::vector<std::vector<double>> analog_values_;   ///< [thread]: analog values of a step's events
    std::vector<std::vector<std::int64_t>> row_sums_;  ///< [thread]: deliver_shared_targets' row
    std::vector<double> scale_;                       ///< [pop * 2 + receptor]: fixed point -> mV
    aligned_vector<std::int64_t> ring_;  ///< [slot][domain neuron][receptor]; empty when !uses_ring()
    std::int64_t slot_mask_ = 0;
    std::size_t slots_ = 1;
    std::vector<std::vector<std::uint32_t>> touched_;  ///< [thread][population][slot]
    /// [step & spike_mask_][thread * (n_pops_ + list_gap) + population]: spikes, kept for two epochs: a
    /// thread may update the steps of an epoch while another still delivers the last one.
    std::vector<std::vector<std::vector<std::uint32_t>>> spikes_;
    std::int64_t spike_mask_ = 1;
    /// The other ranks' spikes, as population-local indices, of the ranks before and after this one.
    struct remote_spikes {
        std::vector<std::uint32_t> before, after;
    };
    std::vector<std::vector<remote_spikes>> remote_;  ///< [step & spike_mask_][population]
    std::vector<spike_sink> spike_sinks_;
    std::vector<state_sink> state_sinks_;
    std::vector<thread_counters> counters_;
    std::int64_t step_ = 0;
    std::uint64_t spike_count_ = 0, synapse_count_ = 0, table_bytes_ = 0, plastic_count_ = 0, plastic_bytes_ = 0;
    std::vector<std::uint64_t> population_spikes_;  ///< [population]
    double build_s_ = 0, sim_s_ = 0;
    double exchange_s_ = 0;  ///< wall time of thread 0 in the ranks' spike exchange and stop vote [s]
};

}  // namespace volley::snn::detail
