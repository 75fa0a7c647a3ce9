// The hosted checkout page: pays through the JSON API under /checkout/<ref>/ and follows the session's status.
(function () {
  'use strict';
  var root = document.getElementById('checkout');
  if (!root) { return; }
  var base = window.location.pathname.replace(/\/+$/, '');
  var methods = (root.getAttribute('data-methods') || '').split(' ').filter(Boolean);
  var selected = methods[0];
  var pollTimer = null;
  var busy = false;

  function $(id) { return document.getElementById(id); }
  // a live page has no card elements at all (no card number is collected there)
  function show(id, visible) { if ($(id)) { $(id).hidden = !visible; } }
  function on(id, event, handler) { if ($(id)) { $(id).addEventListener(event, handler); } }

  function notice(text, kind) {
    var n = $('notice');
    n.textContent = text || '';
    n.className = 'notice' + (kind ? ' ' + kind : '');
    n.hidden = !text;
  }

  function clearFieldErrors() {
    document.querySelectorAll('.field-error').forEach(function (e) { e.textContent = ''; });
  }

  function fieldErrors(errors) {
    var shown = false;
    Object.keys(errors || {}).forEach(function (field) {
      var slot = document.querySelector('.field-error[data-field="' + field + '"]');
      if (slot) { slot.textContent = errors[field].join(' '); shown = true; }
    });
    return shown;
  }

  function api(method, path, body) {
    var init = { method: method, headers: { 'Accept': 'application/json' }, credentials: 'omit', cache: 'no-store' };
    if (body !== undefined) {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    return fetch(base + path, init).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (json) {
        return { ok: response.ok, status: response.status, body: json };
      });
    });
  }

  function selectMethod(method) {
    selected = method;
    ['tab-card', 'tab-mpesa'].forEach(function (id) {
      var tab = $(id);
      if (!tab) { return; }
      tab.setAttribute('aria-selected', String(tab.getAttribute('data-method') === method));
    });
    show('card-form', method === 'CARD');
    show('mpesa-form', method === 'MPESA_STK');
  }

  function render(state) {
    root.setAttribute('data-status', state.status);
    ['pay', 'authentication', 'waiting', 'paid', 'failed', 'expired'].forEach(function (id) { show(id, false); });
    var attempt = state.attempt || {};
    switch (state.status) {
      case 'PENDING':
        show('pay', true);
        selectMethod(selected);
        if (attempt.status === 'FAILED' || attempt.status === 'REJECTED') {
          notice((attempt.reason || 'The payment did not go through.') + ' You can try again.');
        }
        break;
      case 'REQUIRES_CUSTOMER_ACTION':
        if (attempt.method === 'CARD') {
          show('authentication', true);
        } else {
          show('waiting', true);
          $('waiting-text').textContent = 'Check your phone and enter your M-Pesa PIN to approve the payment.';
          poll();
        }
        break;
      case 'PROCESSING':
        show('waiting', true);
        $('waiting-text').textContent = 'Processing your payment…';
        poll();
        break;
      case 'SUCCEEDED':
        notice('');
        show('paid', true);
        show('cancel-link', false);
        if (state.successUrl) {
          setTimeout(function () { window.location.assign(state.successUrl); }, 1200);
        }
        break;
      case 'FAILED':
        show('failed', true);
        if (attempt.reason) { notice(attempt.reason); }
        break;
      case 'EXPIRED':
        notice('');
        show('expired', true);
        break;
    }
  }

  function poll() {
    if (pollTimer) { return; }
    pollTimer = setTimeout(function () {
      pollTimer = null;
      api('GET', '/state').then(function (r) {
        if (r.ok) { render(r.body); } else { poll(); }
      }).catch(function () { poll(); });
    }, 1500);
  }

  function submit(path, body, button) {
    if (busy) { return; }
    busy = true;
    clearFieldErrors();
    notice('');
    if (button) { button.disabled = true; }
    api('POST', path, body).then(function (r) {
      if (r.ok) {
        render(r.body);
      } else if (!fieldErrors(r.body.errors)) {
        notice(r.body.message || 'Something went wrong. Please try again.');
        if (r.status === 409) { refresh(); }
      }
    }).catch(function () {
      notice('We could not reach the payment service. Check your connection and try again.');
    }).then(function () {
      busy = false;
      if (button) { button.disabled = false; }
    });
  }

  function refresh() {
    api('GET', '/state').then(function (r) { if (r.ok) { render(r.body); } });
  }

  show('tab-card', methods.indexOf('CARD') >= 0);
  show('tab-mpesa', methods.indexOf('MPESA_STK') >= 0);
  show('method-tabs', methods.length >= 2);
  on('tab-card', 'click', function () { selectMethod('CARD'); });
  on('tab-mpesa', 'click', function () { selectMethod('MPESA_STK'); });

  on('card-form', 'submit', function (e) {
    e.preventDefault();
    submit('/card', {
      cardNumber: $('card-number').value,
      expiry: $('card-expiry').value,
      cvc: $('card-cvc').value
    }, $('card-pay'));
  });
  $('mpesa-form').addEventListener('submit', function (e) {
    e.preventDefault();
    submit('/mpesa', { phoneNumber: $('mpesa-phone').value }, $('mpesa-pay'));
  });
  on('auth-approve', 'click', function () {
    submit('/card/authentication', { result: 'approve' }, $('auth-approve'));
  });
  on('auth-cancel', 'click', function () {
    submit('/card/authentication', { result: 'cancel' }, $('auth-cancel'));
  });

  refresh();
})();
