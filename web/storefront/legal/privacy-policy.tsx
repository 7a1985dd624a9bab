export function PrivacyPolicy() {
  return (
    <>
      <p>
        Stillwater is a small online shop for calming home and desk goods. This policy explains what personal
        information we collect, why, who we share it with and the choices you have. We collect as little as we can and
        keep it only as long as we need it.
      </p>

      <h2>What we collect and why</h2>

      <h3>When you place an order</h3>
      <p>
        We collect your name, email address, shipping address, phone number if you give one, the items you order and the
        amounts paid. We use this to process and ship your order, send confirmations and updates, handle returns and
        refunds, answer your questions and keep the records tax rules require.
      </p>
      <p>
        Card payments are handled by Stripe. Your card details are entered into Stripe’s secure payment form and never
        reach our servers; Stripe tells us only whether the payment succeeded and basic details such as the card brand
        and last four digits.
      </p>

      <h3>If you create an account</h3>
      <p>
        Accounts are optional; you can check out as a guest. If you create one, we store your email address, a username
        and your password. Passwords are stored only in hashed form, so we cannot read them. We use your account to show
        your order history, speed up checkout and let you reset your password by email.
      </p>

      <h3>If you write a review</h3>
      <p>
        We store your review, rating, the product and the name you choose to show. Reviews are public, so please leave
        out personal details.
      </p>

      <h3>If you join our newsletter</h3>
      <p>
        You can opt in to our newsletter at checkout. The box is never ticked for you. We store your email address and
        when you subscribed so we can send you news and offers. Every newsletter contains a one-click unsubscribe link.
      </p>

      <h3>Site statistics</h3>
      <p>
        On every page you open we record which page it was (its path, without anything after a question mark), when, the
        site you came from, and a random number for your browser tab that ends when the tab closes, so we can count
        visits, how long they last and which pages are useful. We never store your IP address: to count distinct
        visitors we keep a one-way fingerprint of it and your browser’s name, mixed with a random value that changes
        every day and is then deleted, so the fingerprint cannot be traced back or linked across days. Search engines
        and other robots are not counted. Only if you accept cookies do we also note your account on the pages you view
        while signed in. When you place an order, we note that the visit led to it.
      </p>

      <section id="cookies" aria-labelledby="cookies-heading">
        <h3 id="cookies-heading">Cookies and the consent banner</h3>
        <p>
          We use a small number of cookies and similar storage that the site needs to work, for example to keep you
          signed in, remember your cart and remember your cookie choice. These are always on because the shop cannot
          work without them.
        </p>
        <p>
          When you first visit, a banner asks whether you accept advertising cookies. If you choose{' '}
          <strong>Deny</strong> or close the banner, only the essential cookies are used and nothing is sent to any
          advertising service. If you choose <strong>Accept All</strong>, we also load the TikTok pixel, which helps us
          measure whether our TikTok ads lead to visits and purchases, and we tell TikTok about the same visits from our
          own server: the pages you view, the products you look at, when you start checkout and when you complete a
          payment, with the amounts. The pixel is never loaded before you choose Accept All. If your browser sends the
          Global Privacy Control signal, we treat it as Deny and do not ask.
        </p>
        <p>
          You can change your choice at any time with the <strong>Cookie settings</strong> link at the bottom of every
          page, this one included: it shows the banner again.
        </p>
      </section>

      <h3>When you contact us</h3>
      <p>If you email us, we keep the messages so we can help you and keep a record of what was agreed.</p>

      <h2>Our reasons for using your information</h2>
      <ul>
        <li>
          <strong>To fulfil our contract with you:</strong> processing orders, delivery, returns, refunds and running
          your account.
        </li>
        <li>
          <strong>To meet legal obligations:</strong> keeping tax and accounting records and responding to lawful
          requests.
        </li>
        <li>
          <strong>With your consent:</strong> sending the newsletter and loading the TikTok pixel. You can withdraw
          consent at any time.
        </li>
        <li>
          <strong>For our reasonable business interests:</strong> keeping the shop secure, preventing fraud, moderating
          reviews and counting anonymous page views, in ways that do not override your privacy.
        </li>
      </ul>

      <h2>Who we share it with</h2>
      <p>We do not sell your personal information. We share it only where needed to run the shop:</p>
      <ul>
        <li>
          <strong>Stripe</strong>, to process card payments and detect fraud.
        </li>
        <li>
          <strong>Marketplace suppliers and carriers.</strong> Our products are shipped directly from suppliers on
          marketplaces such as AliExpress, so we pass your name, shipping address and, where required for delivery, your
          phone number to the supplier and the carriers who deliver your parcel.
        </li>
        <li>
          <strong>Our email delivery provider</strong>, which sends password reset emails, order confirmations and
          newsletters on our behalf.
        </li>
        <li>
          <strong>TikTok</strong>, only if you choose Accept All, through the pixel described above.
        </li>
        <li>
          <strong>Authorities or advisers</strong>, where the law requires it or to protect our rights, for example in a
          fraud case.
        </li>
      </ul>
      <p>
        Some of these providers, including suppliers and carriers, may handle your information outside the United
        States. Each receives only what it needs for its task.
      </p>

      <h2>How long we keep it</h2>
      <ul>
        <li>Order and payment records: 7 years, because tax and accounting rules require it.</li>
        <li>
          Accounts: until you ask us to delete yours. If an account has not been used for 3 years, we may close it and
          delete it, keeping only order records we must retain.
        </li>
        <li>Newsletter subscriptions: until you unsubscribe. We then keep only a note that you opted out.</li>
        <li>Reviews: while the product page is online, or until you ask us to remove yours.</li>
        <li>Anonymous page-view records: 13 months.</li>
        <li>Support emails: up to 2 years after the matter is closed.</li>
      </ul>

      <h2>How we protect it</h2>
      <p>
        Our site is served only over encrypted (HTTPS) connections. Passwords are hashed, card details are handled by
        Stripe, and your data is stored on servers we operate, with access limited to the people who run the shop. No
        system is perfectly secure, but if a breach affected your information, we would tell you as the law requires.
      </p>

      <h2>Your rights and choices</h2>
      <ul>
        <li>
          <strong>Access:</strong> ask for a copy of the personal information we hold about you.
        </li>
        <li>
          <strong>Correction:</strong> ask us to fix anything that is wrong or out of date.
        </li>
        <li>
          <strong>Deletion:</strong> ask us to delete your account and information, except records we must keep by law.
        </li>
        <li>
          <strong>Newsletter:</strong> unsubscribe at any time with the link in any newsletter.
        </li>
        <li>
          <strong>Cookies:</strong> withdraw your cookie consent by clearing this site’s cookies and choosing Deny.
        </li>
      </ul>
      <p>
        To make a request, email us from the address linked to your account or order so we can confirm it is you. We
        will reply within 30 days and will not treat you differently for using your rights.
      </p>

      <h3>California residents</h3>
      <p>
        If you live in California, you may ask to know what personal information we collect, use and disclose, to have
        it corrected or deleted, and to opt out of its sale or sharing for targeted advertising. We do not sell personal
        information. Ad measurement through the TikTok pixel may count as sharing, so it only runs after Accept All, and
        choosing Deny opts you out. You may also make a request through an authorised agent.
      </p>

      <h2>Children</h2>
      <p>
        Stillwater is not directed at children under 16, and we do not knowingly collect their personal information. If
        you believe a child has given us information, contact us and we will delete it.
      </p>

      <h2>Changes to this policy</h2>
      <p>
        We may update this policy when our shop or the law changes. We will change the “Last updated” date at the top of
        this page, and for significant changes we will also let account holders know by email.
      </p>

      <h2>Contact us</h2>
      <p>
        For any question or request about your privacy, email{' '}
        <a href="mailto:support@stillwater.shop">support@stillwater.shop</a>.
      </p>
    </>
  );
}
